import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSecret, sign, signedHeaders, signingSecrets, webhookBody } from './signature.ts';

describe('Standard Webhooks signature', () => {
  it('is verified by the official standardwebhooks package', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = webhookBody({
      id: '2f2c5d0e-8a7f-4b8e-9d7c-3b1a2c4d5e6f',
      type: 'application.created',
      occurredAt: new Date(),
      companyId: '7b0c7d8e-1111-4222-8333-944455566677',
      data: { application: { id: 'x', status: 'ACTIVE' } },
    });
    const headers = signedHeaders({ msgId: 'msg_1', timestamp: new Date(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('matches the Standard Webhooks specification example', () => {
    // From the spec's test vectors (standard-webhooks libraries' tests).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const msgId = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const timestamp = 1614265330;
    const body = '{"test": 2432232314}';
    expect(sign(secret, msgId, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('carries one signature per secret, each verifiable on its own', () => {
    const [oldSecret, newSecret, stranger] = [generateSecret(), generateSecret(), generateSecret()];
    const body = '{"id":"1"}';
    const headers = signedHeaders({ msgId: 'msg_2', timestamp: new Date(), body, secrets: [newSecret, oldSecret] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(newSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
    expect(() => new Webhook(newSecret).verify(body.replace('1', '2'), headers)).toThrow();
  });

  it('signs with the previous secret only during its grace period', () => {
    const now = new Date('2025-01-01T12:00:00Z');
    const sub = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: new Date('2025-01-02T12:00:00Z') };
    expect(signingSecrets(sub, now)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(sub, new Date('2025-01-02T12:00:00Z'))).toEqual(['whsec_new']);
    expect(signingSecrets({ ...sub, previousSecret: null, previousSecretExpiresAt: null }, now)).toEqual(['whsec_new']);
  });

  it('puts id, type, timestamp, companyId and data in the body, in that order', () => {
    const body = webhookBody({ id: 'e', type: 't', occurredAt: new Date('2025-01-01T00:00:00Z'), companyId: 'c', data: { a: 1 } });
    expect(body).toBe('{"id":"e","type":"t","timestamp":"2025-01-01T00:00:00.000Z","companyId":"c","data":{"a":1}}');
  });
});
