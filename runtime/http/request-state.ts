import type { Response } from 'express';
import type { Schema } from '../rest/schema.js';

/** Per-request state shared by the middleware and the handlers. */
export interface RequestState {
  requestId: string;
  /** `http://host[:port][BASE_PATH]` */
  siteRoot: string;
  /** `<siteRoot>/api` */
  apiRoot: string;
  /** The request's absolute URL (for pagination links). */
  url: URL;
  params: URLSearchParams;
  /** Pretty-print JSON with this indent (from `Accept: application/json; indent=N`). */
  indent: number | undefined;
  /** Answer with the browsable API's HTML page instead of JSON (a browser's GET, or `?format=api`). */
  browsable: boolean;
  /** The models, for the browsable API's titles and filter hints (when the composition root gave them). */
  schema: Schema | undefined;
}

/** The state that `requestState` attached to the response. */
export function stateOf(res: Response): RequestState {
  return res.locals.state as RequestState;
}
