// Vitest copies Vite's import.meta.env values into process.env (MODE=test, BASE_URL=/, ...), and
// MODE and BASE_URL are settings of ours too. Child processes (the CLI, the server) get the
// environment without them, plus the settings the test gives.
const VITE_ENV = ['MODE', 'BASE_URL', 'DEV', 'PROD', 'SSR'];

export function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of VITE_ENV) delete env[name];
  return { ...env, ...settings };
}
