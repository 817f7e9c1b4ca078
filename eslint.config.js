// Lint rules beyond type-checking: keep them few and meaningful. The boundaries of
// docs/decisions.md ("Module boundaries") are enforced here; import cycles are refused by
// scripts/check-module-graph.ts (also part of `npm run verify`).
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

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dashboard/**', 'coverage/**', 'sdk/src/schema.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Modules register their events by `interface EventCatalogue extends Payloads {}` (declaration merging).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
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
  {
    files: ['src/shared/**/*.ts', 'src/infra/**/*.ts', 'src/adapters/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(foreignData, noHttp, noCompositionRoot, noModules, noTooling) },
  },
);
