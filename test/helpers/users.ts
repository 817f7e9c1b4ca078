// A user looked up by e-mail, for assertions (the service answers users only through sign-in).
import type { ServiceContext } from '../../src/shared/context.ts';
import { findUserByEmail } from '../../src/modules/users/repo.ts';
import { normalizeEmail } from '../../src/modules/users/service.ts';

export async function userByEmail(ctx: ServiceContext, email: string) {
  return findUserByEmail(ctx.db, normalizeEmail(email));
}
