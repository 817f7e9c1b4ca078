// oidc-provider's storage adapter over our database: one class per model name ("AccessToken",
// "Session", "Client"...), all in the oidc_payloads table. Expiry is judged by our clock, so tests
// can move time; expired rows read as absent.
//
// No secret is kept in clear: rows are keyed by the hash of the artifact's id (repo.ts), and the
// payload keeps no copy of it. oidc-provider puts the id in the payload as `jti` (for opaque
// tokens, codes and sessions, the very value the client holds), and an interaction carries its
// session's id as `session.cookie` (read by nothing): both are left out on the way in, and `jti`
// is given back from the id the provider asked with on the way out.
//
// Values PostgreSQL cannot hold (a NUL character, a lone UTF-16 surrogate) can only come from a
// request (`client_id=a%00b`, a token or a `state` with one): they are refused as the provider's
// own `invalid_request` (400), never reaching the database, where they would fail as a 500.
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { ServiceContext } from '../../shared/context.ts';
import { holdsUnstorableText, unstorableText } from '../../shared/storable-text.ts';
import {
  consumePayload,
  deletePayload,
  deletePayloadsOfGrant,
  findPayload,
  findPayloadBy,
  upsertPayload,
} from './repo.ts';

export type AdapterClass = new (name: string) => Adapter;

const UNSTORABLE = 'request parameters must not contain NUL characters or lone UTF-16 surrogates';

function refuseUnstorable(value: string): void {
  if (unstorableText(value) !== undefined) throw new errors.InvalidRequest(UNSTORABLE);
}

/** The payload as stored: without the secret id oidc-provider copies into it. */
function storedPayload(kind: string, id: string, payload: AdapterPayload): Record<string, unknown> {
  const { jti, ...rest } = payload as Record<string, unknown>;
  const stored = jti === id ? rest : (payload as Record<string, unknown>);
  if (kind === 'Interaction' && stored.session && typeof stored.session === 'object') {
    const { cookie: _sessionId, ...session } = stored.session as Record<string, unknown>;
    return { ...stored, session };
  }
  return stored;
}

/** The payload as oidc-provider wrote it (`jti` is the id it was found by; clients have none). */
function restoredPayload(kind: string, id: string, stored: Record<string, unknown> | undefined): AdapterPayload | undefined {
  if (!stored) return undefined;
  return (kind === 'Client' ? stored : { ...stored, jti: id }) as AdapterPayload;
}

export function databaseAdapter(ctx: ServiceContext): AdapterClass {
  return class DatabaseAdapter implements Adapter {
    readonly kind: string;

    constructor(kind: string) {
      this.kind = kind;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      refuseUnstorable(id);
      if (holdsUnstorableText(payload)) throw new errors.InvalidRequest(UNSTORABLE);
      const now = ctx.clock.now();
      await upsertPayload(ctx.db, {
        kind: this.kind,
        id,
        payload: storedPayload(this.kind, id, payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      refuseUnstorable(id);
      return restoredPayload(this.kind, id, (await findPayload(ctx.db, this.kind, id, ctx.clock.now()))?.payload);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      refuseUnstorable(userCode);
      const row = await findPayloadBy(ctx.db, this.kind, 'userCode', userCode, ctx.clock.now());
      return row ? (row.payload as AdapterPayload) : undefined;
    }

    // A session found by its uid comes back without its id (only the hash is kept): the provider
    // only reads such a session (whose account, which grants), never saves or destroys it.
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      refuseUnstorable(uid);
      const row = await findPayloadBy(ctx.db, this.kind, 'uid', uid, ctx.clock.now());
      return row ? (row.payload as AdapterPayload) : undefined;
    }

    async consume(id: string): Promise<void> {
      refuseUnstorable(id);
      await consumePayload(ctx.db, this.kind, id, Math.floor(ctx.clock.now().getTime() / 1000));
    }

    async destroy(id: string): Promise<void> {
      refuseUnstorable(id);
      await deletePayload(ctx.db, this.kind, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      refuseUnstorable(grantId);
      await deletePayloadsOfGrant(ctx.db, grantId);
    }
  };
}
