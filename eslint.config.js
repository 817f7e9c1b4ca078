// Lint rules beyond type-checking: keep them few and meaningful. The boundaries of
// docs/decisions.md ("Module boundaries") are enforced here; import cycles are refused by
// scripts/check-module-graph.ts (also part of `npm run verify`).
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ONLY_THROUGH_SERVICE =
  "A module is used by others only through its service.ts and its pure files: its repo.ts (or repo/ folder) and tables.ts are its own (docs/decisions.md, 'Module boundaries').";

/** Another module's (or an infrastructure folder's) SQL: never imported across a folder boundary. */
const foreignData = {
  group: ['../*/repo.ts', '../*/repo/**', '../*/tables.ts', '**/modules/*/repo.ts', '**/modules/*/repo/**', '**/modules/*/tables.ts', '**/infra/*/tables.ts'],
  message: ONLY_THROUGH_SERVICE,
};
const noHttp = {
  group: ['**/http/**', '**/app.ts'],
  message: 'Only routes.ts and schemas.ts speak HTTP; services throw coded errors and take pages from src/shared.',
};
const noCompositionRoot = {
  group: ['**/deps.ts', '**/server.ts', '**/worker.ts', '**/cli.ts'],
  message: 'Dependencies arrive through the service context; only the entry files build them (src/deps.ts).',
};
const noModules = { group: ['**/modules/**'], message: 'Shared, infrastructure and adapter code never depends on a domain module.' };
const noTooling = { group: ['**/tooling/**'], message: 'Tooling (demo and benchmark data) uses the service; nothing in it is used back.' };

const restrict = (...patterns) => ['error', { patterns }];

// A service opens its transactions with withTransaction(ctx, work) (src/shared/context.ts): the
// Idempotency-Key fence applies there (a retry that took a request's key over rolls its change
// back), and a nested service call joins the caller's transaction through its context.
const OPEN_THROUGH_CONTEXT = {
  selector: "CallExpression[callee.property.name='transaction'][callee.object.type='MemberExpression'][callee.object.property.name='db']",
  message: "Open the transaction with withTransaction(ctx, work) (src/shared/context.ts): the Idempotency-Key fence applies only there.",
};
// The webhook worker opens its own transactions: it runs outside any request, so no fence applies.
const OPENS_ITS_OWN_TRANSACTION = ['src/modules/webhooks/worker/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dashboard/dist/**', 'dashboard/dist-next/**', 'coverage/**', 'sdk/src/schema.ts', 'sdk/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Modules register their events by `interface EventCatalogue extends Payloads {}` (declaration merging).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  // The dashboard (React): the Rules of React, including the compiler's checks; a missing effect
  // dependency is an error, not a warning, so `npm run verify` refuses it.
  {
    files: ['dashboard/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  // The later entries win for the files they match: each lists every pattern its files obey.
  { files: ['src/**/*.ts'], rules: { 'no-restricted-imports': restrict(foreignData) } },
  {
    files: ['src/modules/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(foreignData, noHttp, noCompositionRoot, noTooling) },
  },
  {
    files: ['src/modules/*/routes.ts', 'src/modules/*/schemas.ts'],
    rules: { 'no-restricted-imports': restrict(foreignData, noCompositionRoot, noTooling) },
  },
  { files: ['src/modules/**/*.ts'], ignores: OPENS_ITS_OWN_TRANSACTION, rules: { 'no-restricted-syntax': ['error', OPEN_THROUGH_CONTEXT] } },
  {
    files: ['src/shared/**/*.ts', 'src/infra/**/*.ts', 'src/adapters/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(foreignData, noHttp, noCompositionRoot, noModules, noTooling) },
  },
);
