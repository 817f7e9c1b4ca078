// The API key scopes of the contract, and what each grants (shown in the OpenAPI document).
export const SCOPES = {
  'jobs:read': 'list and retrieve job listings',
  'jobs:write': 'create, update, publish, archive, delete job listings',
  'applications:read': 'list and retrieve applications',
  'applications:write': 'submit external applications, update application status',
  'candidates:read': 'search and view candidate profiles',
  'candidates:write': 'import external candidates into the pipeline',
  'webhooks:manage': 'create, update, delete webhook subscriptions',
  'analytics:read': 'read analytics and overview metrics',
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
