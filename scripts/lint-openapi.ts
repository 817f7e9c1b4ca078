// Lints the checked-in OpenAPI document (sdk/openapi.json, kept equal to the code by
// `npm run generate -- --check`) with Spectral (spectral:oas, .spectral.yaml) and Redocly
// (recommended, redocly.yaml). Fails on any error, warning, info or hint from either.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const DOCUMENT = 'sdk/openapi.json';
// No telemetry or update checks from a CI run.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', SCARF_ANALYTICS: 'false' };

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result.stdout;
}

const outDir = mkdtempSync(join(tmpdir(), 'lint-openapi-'));
const spectralOut = join(outDir, 'spectral.json');
run(bin('spectral'), ['lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--format', 'json', '--output', spectralOut, '--fail-severity', 'hint']);
const spectral = JSON.parse(readFileSync(spectralOut, 'utf8')) as Array<{
  code: string;
  message: string;
  path: string[];
  severity: number;
}>;
rmSync(outDir, { recursive: true, force: true });
const redocly = JSON.parse(run(bin('redocly'), ['lint', DOCUMENT, '--config', 'redocly.yaml', '--format', 'json'])) as {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; severity: string; location: Array<{ pointer: string }> }>;
};

for (const result of spectral) console.error(`spectral ${result.code}: ${result.message} at ${result.path.join('.')}`);
for (const problem of redocly.problems) {
  console.error(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`);
}
console.log(`Spectral (spectral:oas): ${spectral.length} problems; Redocly (recommended): ${redocly.totals.errors} errors, ${redocly.totals.warnings} warnings`);
if (spectral.length > 0 || redocly.problems.length > 0) process.exit(1);
