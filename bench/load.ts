// The load generator, run as its own process so it never shares a core's event loop with the
// server it measures: `node bench/load.ts spec.json` (a LoadSpec) prints one JSON LoadResult line.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  headers?: Record<string, string>;
  /** Each request takes a path at random from these (else the url's own path). */
  paths?: string[];
  /** Each request takes a body at random from these (JSON texts). */
  bodies?: string[];
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
const pickFrom = (values: string[]) => values[Math.floor(Math.random() * values.length)];
const headers = { ...spec.headers, ...(spec.bodies ? { 'content-type': 'application/json' } : {}) };
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  requests: [
    {
      method: spec.method ?? 'GET',
      headers,
      setupRequest(request) {
        if (spec.paths) request.path = pickFrom(spec.paths);
        if (spec.bodies) request.body = pickFrom(spec.bodies);
        return request;
      },
    },
  ],
});
const out: LoadResult = {
  rps: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
console.log(JSON.stringify(out));
