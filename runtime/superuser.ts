import { randomUUID } from 'node:crypto';
import type { AppContext } from './http/app-context.js';
import { ValidationError } from './errors.js';
import { runWrite } from './http/writes.js';
import { createObjects } from './rest/write.js';
import { V2_PREFIX } from './auth/tokens.js';

/**
 * Creates a superuser through the same validation as the API (and optionally a v2 token for it).
 * Returns the Authorization header value of the token when one was made.
 */
export async function createSuperuser(
  app: AppContext,
  options: { username: string; password: string; email: string; token: boolean },
): Promise<{ userId: number; header: string | null }> {
  const userModel = app.schema.withRole('user');
  const tokenModel = app.schema.withRole('token');
  if (!userModel) throw new Error('no model has the user role');
  const request = {
    requestId: randomUUID(),
    method: 'POST',
    path: 'createsuperuser',
    principal: { user: null, token: null },
  };
  try {
    return await runWrite(app, request, async (ctx) => {
      const created = await createObjects(
        ctx,
        userModel,
        [
          {
            username: options.username,
            password: options.password,
            email: options.email,
            is_active: true,
          },
        ],
        false,
      );
      const userId = created.ids[0]!;
      // The API neither shows nor writes is_superuser (as NetBox's UserSerializer): only this command sets it.
      const flag = userModel.fields.get('is_superuser')!.column!;
      await ctx
        .q(userModel.table)
        .where('id', userId)
        .update({ [flag]: true });
      if (!options.token || !tokenModel) return { userId, header: null };
      const token = await createObjects(
        ctx,
        tokenModel,
        [{ user: userId, description: 'Created by createsuperuser' }],
        false,
      );
      const id = token.ids[0]!;
      const key = ((await ctx.q(tokenModel.table).where('id', id).first('key')) as { key: string }).key;
      const secret = token.transient.get(id)?.token as string;
      return { userId, header: `Bearer ${V2_PREFIX}${key}.${secret}` };
    });
  } catch (error) {
    if (error instanceof ValidationError) throw new Error(`Invalid input: ${JSON.stringify(error.body)}`);
    throw error;
  }
}
