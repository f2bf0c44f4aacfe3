/**
 * Who a request acts for and what it may touch: plain types shared by every layer (REST writes, domain
 * functions, events and HTTP alike), kept in a leaf module that imports nothing.
 */

/** The authenticated user of a request. */
export interface AuthUser {
  id: number;
  username: string;
  isSuperuser: boolean;
  isActive: boolean;
}

/** The token a request authenticated with. */
export interface AuthToken {
  id: number;
  version: 1 | 2;
  writeEnabled: boolean;
}

/** A request's user and token. */
export interface Principal {
  user: AuthUser | null;
  token: AuthToken | null;
  /** The user's object permissions (loaded at authentication; absent for superusers and anonymous clients). */
  grants?: Grants;
}

/** A permission constraint: a dict is AND, a list of dicts is OR (Django queryset filter semantics). */
export type Constraint = Record<string, unknown>;

/** Which objects of a model a request may act on: all, or those matching any constraint. */
export type Restriction = { all: true } | { all: false; constraints: Constraint[] };

/** What a user's object permissions grant: model label → action → restriction. */
export type Grants = ReadonlyMap<string, ReadonlyMap<string, Restriction>>;
