// oidc-provider's storage adapter over our database: one class per model name ("AccessToken",
// "Session", "Client"...), all in the oidc_payloads table. Expiry is judged by our clock, so tests
// can move time; expired rows read as absent.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { ServiceContext } from '../../shared/context.ts';
import {
  consumePayload,
  deletePayload,
  deletePayloadsOfGrant,
  findPayload,
  findPayloadBy,
  upsertPayload,
} from './repo.ts';

export type AdapterClass = new (name: string) => Adapter;

export function databaseAdapter(ctx: ServiceContext): AdapterClass {
  return class DatabaseAdapter implements Adapter {
    readonly kind: string;

    constructor(kind: string) {
      this.kind = kind;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const now = ctx.clock.now();
      await upsertPayload(ctx.db, {
        kind: this.kind,
        id,
        payload: payload as Record<string, unknown>,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await findPayload(ctx.db, this.kind, id, ctx.clock.now()))?.payload as AdapterPayload | undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return (await findPayloadBy(ctx.db, this.kind, 'userCode', userCode, ctx.clock.now()))?.payload as
        | AdapterPayload
        | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await findPayloadBy(ctx.db, this.kind, 'uid', uid, ctx.clock.now()))?.payload as AdapterPayload | undefined;
    }

    async consume(id: string): Promise<void> {
      await consumePayload(ctx.db, this.kind, id, Math.floor(ctx.clock.now().getTime() / 1000));
    }

    async destroy(id: string): Promise<void> {
      await deletePayload(ctx.db, this.kind, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deletePayloadsOfGrant(ctx.db, grantId);
    }
  };
}
