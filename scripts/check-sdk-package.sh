#!/usr/bin/env bash
# The SDK as an integrator gets it: `npm pack` of sdk/ (its prepack builds dist/), the tarball
# installed in an empty project on the host's own Node (not the repository's pinned Node 24), a
# strict TypeScript consumer compiled against it (strict, moduleResolution nodenext, no
# allowImportingTsExtensions; and once more as a browser project: DOM lib, no Node types), then run
# against a started API: list, create, paginate, a typed error, and a webhook signature verified.
# Run by .ci/run; on its own: scripts/check-sdk-package.sh (needs the repository's npm install).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

# Under `npm run` the pinned Node 24 (node_modules/.bin/node) comes first in PATH: drop it.
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd: -)"
export PATH
HOST_NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
echo "host Node: $(node -v) ($(command -v node)); npm $(npm -v)"

WORK="$(mktemp -d)"
PORT="${SDK_CHECK_PORT:-39182}"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null; then
  echo "port $PORT is already taken: another server would answer this check" >&2
  exit 1
fi
# Started first: it readies (migrations, demo data) while the package is packed and compiled. As
# .ci/run's production section does, in a session of its own so the SIGTERM reaches the server;
# without the prestart dashboard build, which this check does not need.
env -u DATABASE_URL PORT="$PORT" DATA_DIR="$WORK/data" setsid npm run start --ignore-scripts >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

# 1. Pack: prepack builds dist/ on this Node.
npm pack --workspace sdk --pack-destination "$WORK" --loglevel=warn >/dev/null
TARBALL="$(ls "$WORK"/recruiting-sdk-*.tgz)"
CONTENTS="$(tar -tzf "$TARBALL")"
for expected in package/package.json package/README.md package/openapi.json package/dist/index.js package/dist/index.d.ts package/dist/webhooks.js; do
  grep -qx "$expected" <<<"$CONTENTS" || { echo "$expected is missing from $(basename "$TARBALL")" >&2; exit 1; }
done
if grep -q '^package/src/' <<<"$CONTENTS"; then
  echo "the tarball ships TypeScript sources (package/src/): it should ship dist/ only" >&2
  exit 1
fi
# Browsers load the same files: none may import a Node built-in.
if tar -xzOf "$TARBALL" --wildcards 'package/dist/*.js' | grep -nE "(from|import\() *['\"]node:|require\(" >&2; then
  echo "the built SDK imports Node modules (above): it must run in browsers too" >&2
  exit 1
fi
echo "packed $(basename "$TARBALL"): $(grep -c . <<<"$CONTENTS") files, dist/ and openapi.json, no sources"

# 2. An empty project installs the tarball (its own dependencies come from the registry).
CONSUMER="$WORK/consumer"
mkdir -p "$CONSUMER/src"
cat >"$CONSUMER/package.json" <<'EOF'
{ "name": "sdk-consumer", "version": "1.0.0", "private": true, "type": "module" }
EOF
(cd "$CONSUMER" && npm install --no-audit --no-fund --prefer-offline --loglevel=error "$TARBALL" "@types/node@$HOST_NODE_MAJOR")
if [ -e "$CONSUMER/node_modules/typescript" ]; then
  echo "the SDK pulled TypeScript into a consumer's install: it must be a devDependency only" >&2
  exit 1
fi

# 3. A strict consumer. TypeScript is the repository's own (the consumer does not need one to run).
cat >"$CONSUMER/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "exactOptionalPropertyTypes": true,
    "skipLibCheck": false,
    "types": ["node"],
    "lib": ["ES2022"],
    "rootDir": "src",
    "outDir": "dist"
  },
  "files": ["src/main.ts"]
}
EOF
cat >"$CONSUMER/src/main.ts" <<'EOF'
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  createRecruitingClient,
  RecruitingApiError,
  SDK_VERSION,
  verifyWebhook,
  Webhook,
  WebhookVerificationError,
  type Schemas,
  type WebhookEvent,
} from '@recruiting/sdk';

const baseUrl = process.env.RECRUITING_URL ?? '';
const apiKey = process.env.RECRUITING_API_KEY ?? '';
const { version } = createRequire(import.meta.url)('@recruiting/sdk/package.json') as { version: string };
assert.equal(SDK_VERSION, version);

const api = createRecruitingClient({ baseUrl, apiKey });

// List.
const listed = await api.GET('/public/v1/job-listings', { params: { query: { size: 5 } } });
assert.equal(listed.response.status, 200);
const before: number = listed.data?.pagination.totalElements ?? -1;
assert.ok(before >= 0);

// Create five, then paginate them two a page (three pages).
const run = randomUUID().slice(0, 8);
const created: Schemas['JobListing'][] = [];
for (let i = 0; i < 5; i += 1) {
  const { data, error, response } = await api.POST('/public/v1/job-listings', {
    body: { position: `SDK package check ${run} ${i}`, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' },
  });
  assert.equal(response.status, 201, JSON.stringify(error));
  assert.ok(data);
  created.push(data);
}
const seen: string[] = [];
for await (const item of api.paginate('/public/v1/job-listings', { query: { q: run, size: 2 } })) seen.push(item.id);
assert.deepEqual([...seen].sort(), created.map((listing) => listing.id).sort());

// A refusal is typed (the plain methods) or thrown (paginate).
const stranger = createRecruitingClient({ baseUrl, apiKey: 'rk_live_not_a_key', retry: { retries: 0 } });
const refused = await stranger.GET('/public/v1/job-listings');
assert.equal(refused.response.status, 401);
assert.equal(typeof refused.error?.message, 'string');
await assert.rejects(
  async () => {
    for await (const _ of stranger.paginate('/public/v1/job-listings')) void _;
  },
  (error: unknown) => error instanceof RecruitingApiError && error.status === 401,
);

// A webhook delivery signed with a made-up secret verifies; the same body altered does not.
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const id = `msg_${randomUUID()}`;
const sentAt = new Date();
const body = JSON.stringify({ type: 'job_listing.created', timestamp: sentAt.toISOString(), data: { id: created[0]?.id } });
const headers = {
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(id, sentAt, body),
};
const event: WebhookEvent = verifyWebhook(secret, body, headers);
assert.equal(event.type, 'job_listing.created');
assert.throws(() => verifyWebhook(secret, body.replace('created', 'updated'), headers), WebhookVerificationError);
assert.throws(() => verifyWebhook(secret, new TextEncoder().encode(body), { ...headers, 'webhook-id': 'msg_other' }), WebhookVerificationError);

console.log(`consumer on Node ${process.versions.node}: SDK ${SDK_VERSION}; listed ${before}, created 5, paginated 5 over 3 pages, 401 typed and thrown, webhook verified`);
EOF
# The same package type-checked as a browser project sees it: DOM, no Node types. (skipLibCheck:
# standardwebhooks' own declarations name Node's Buffer.)
cat >"$CONSUMER/tsconfig.browser.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": [],
    "lib": ["ES2022", "DOM", "DOM.Iterable"]
  },
  "files": ["src/browser.ts"]
}
EOF
cat >"$CONSUMER/src/browser.ts" <<'EOF'
import { createRecruitingClient, verifyWebhook, type Schemas } from '@recruiting/sdk';

const api = createRecruitingClient({ baseUrl: location.origin, accessToken: () => sessionStorage.getItem('token') ?? '' });
export async function firstListing(): Promise<Schemas['JobListingListItem'] | undefined> {
  const { data } = await api.GET('/public/v1/job-listings', { params: { query: { size: 1 } } });
  return data?.data[0];
}
export const check = (secret: string, body: Uint8Array, headers: Headers) => verifyWebhook(secret, body, headers).type;
EOF
TSC="$ROOT/node_modules/typescript/bin/tsc"
node "$TSC" -p "$CONSUMER/tsconfig.json"
node "$TSC" -p "$CONSUMER/tsconfig.browser.json"
echo "compiled the strict consumer (nodenext, Node types) and a browser one (DOM) against the installed package"

# 4. Run it against the server.
ready=""
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then ready=1; break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
  sleep 1
done
API_KEY="$(grep -o 'rk_live_[A-Za-z0-9]*' "$WORK/server.log" | head -1 || true)"
if [ -z "$ready" ] || [ -z "$API_KEY" ]; then
  echo "the API did not start (ready=$ready, key printed: ${API_KEY:+yes}):" >&2
  cat "$WORK/server.log" >&2
  exit 1
fi
(cd "$CONSUMER" && RECRUITING_URL="http://127.0.0.1:$PORT" RECRUITING_API_KEY="$API_KEY" node dist/main.js)
# And on the repository's pinned Node when it is another major (24 beside the host's 20 in CI).
PINNED_NODE="$ROOT/node_modules/.bin/node"
if [ -x "$PINNED_NODE" ] && [ "$("$PINNED_NODE" -p 'process.versions.node.split(".")[0]')" != "$HOST_NODE_MAJOR" ]; then
  (cd "$CONSUMER" && RECRUITING_URL="http://127.0.0.1:$PORT" RECRUITING_API_KEY="$API_KEY" "$PINNED_NODE" dist/main.js)
fi
echo "SDK package check passed"
