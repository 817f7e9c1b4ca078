// Examples for the OpenAPI document. Request bodies are written by hand, one per operation, and a
// test sends each of them to the real server (test/foundation/openapi-examples.test.ts): the ids
// in them are the EXAMPLE_IDS below, which that test swaps for the ids of real resources.
// Response examples are derived from the response schemas (exampleOf), with realistic values
// chosen by field name and format, so they always match the schema they illustrate.

/** Ids used in examples; the examples test maps each to a real resource of its kind. */
export const EXAMPLE_IDS = {
  company: '0b6f3c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f',
  jobListing: '5f0c8a4e-2b7d-4c1e-9a3f-1d2e3f4a5b6c',
  application: '8d7e6f5a-4b3c-4d2e-8f1a-0b9c8d7e6f5a',
  candidate: 'c4a1e2d3-5b6f-4a7c-9d8e-2f1a0b9c8d7e',
  webhook: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
  delivery: 'd0e1f2a3-b4c5-4d6e-9f7a-8b9c0d1e2f3a',
  apiKey: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
  user: 'f6e5d4c3-b2a1-4f0e-9d8c-7b6a5f4e3d2c',
  invitation: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  rejectionReason: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
  note: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  file: '3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f',
} as const;

/** The job board of the examples (the examples test sets it up in its company). */
export const EXAMPLE_BOARD_SLUG = 'nordlicht-software';

/** Path parameter examples, by parameter name and the path's first resource segment. */
export function pathParameterExample(path: string, name: string): string | undefined {
  if (name === 'lang') return 'de';
  if (name === 'deliveryId') return EXAMPLE_IDS.delivery;
  if (name === 'userId') return EXAMPLE_IDS.user;
  if (name === 'noteId') return EXAMPLE_IDS.note;
  if (name === 'fileId') return EXAMPLE_IDS.file;
  if (name === 'slug') return EXAMPLE_BOARD_SLUG;
  if (name !== 'id') return undefined;
  if (path.startsWith('/boards/')) return EXAMPLE_IDS.jobListing;
  if (path.startsWith('/public/v1/job-listings') || path.startsWith('/settings/job-listings')) return EXAMPLE_IDS.jobListing;
  if (path.startsWith('/public/v1/applications')) return EXAMPLE_IDS.application;
  if (path.startsWith('/public/v1/candidates')) return EXAMPLE_IDS.candidate;
  if (path.startsWith('/public/v1/webhooks')) return EXAMPLE_IDS.webhook;
  if (path.startsWith('/public/v1/rejection-reasons')) return EXAMPLE_IDS.rejectionReason;
  if (path.startsWith('/settings/api-keys')) return EXAMPLE_IDS.apiKey;
  if (path.startsWith('/settings/members/invitations')) return EXAMPLE_IDS.invitation;
  return undefined;
}

/** One request body per operation that takes one, by operationId. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createJobListing: {
    position: 'Senior Backend Engineer (Node.js)',
    positionType: 'FULL_TIME',
    workPlaceType: 'HYBRID',
    language: 'en',
    address: { street: 'Friedrichstraße 68', city: 'Berlin', country: 'DE', postalCode: '10117' },
    jobDescription: 'You design, build and run the public API behind our hiring platform, together with a team of six.',
    requirementsSummary: 'Five years or more building HTTP APIs in TypeScript; PostgreSQL in production.',
    skills: [
      { value: 'TypeScript', type: 'SOFTWARE', expertType: 'ADVANCED' },
      { value: 'German', type: 'LANGUAGE', languageProficiency: 'B2' },
    ],
    currency: 'EUR',
    salaryBase: 72000,
    isSalaryMax: true,
    salaryMax: 86000,
    salaryType: 'GROSS',
    paymentInterval: 'YEARLY',
    benefits: ['30 days of paid holiday', 'Public transport ticket'],
    educationLevel: 'BACHELOR',
    yearsOfExperience: 5,
    numberOfPositionsOpened: 2,
    referenceNumber: 'ENG-2026-014',
    hiringProcessSteps: [
      { stepName: 'Phone screen', description: '30 minutes with the hiring manager' },
      { stepName: 'Technical interview' },
    ],
    jobListingRequirements: [{ requirementText: 'Right to work in the EU' }],
  },
  updateJobListing: {
    position: 'Staff Backend Engineer (Node.js)',
    salaryMax: 95000,
    benefits: ['30 days of paid holiday', 'Public transport ticket', 'Learning budget of 1,500 EUR a year'],
  },
  putJobListingTranslation: {
    position: 'Senior Backend-Entwickler:in (Node.js)',
    jobDescription: 'Du entwirfst, baust und betreibst die öffentliche API unserer Recruiting-Plattform, in einem Team von sechs Leuten.',
  },
  importCandidates: {
    jobListingId: EXAMPLE_IDS.jobListing,
    candidates: [
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace.hopper@example.com',
        phone: '+1 212 555 0143',
        headline: 'Compiler engineer',
        location: 'New York, US',
        skills: ['COBOL', 'Compilers'],
        links: ['https://www.linkedin.com/in/grace-hopper-example'],
      },
    ],
  },
  uploadCandidateFile: {
    kind: 'RESUME',
    fileName: 'Ada Lovelace - CV.pdf',
    applicationId: EXAMPLE_IDS.application,
    // A (tiny) PDF: the type is decided from these bytes.
    contentBase64: 'JVBERi0xLjQKMSAwIG9iaiA8PCAvVHlwZSAvQ2F0YWxvZyA+PiBlbmRvYmoKdHJhaWxlciA8PCAvUm9vdCAxIDAgUiA+PgolJUVPRgo=',
  },
  submitApplication: {
    jobListingId: EXAMPLE_IDS.jobListing,
    candidate: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada.lovelace@example.com',
      phone: '+44 20 7946 0958',
      headline: 'Analytical engine programmer',
    },
    source: 'CAREER_SITE',
    coverLetter: 'I would love to bring my experience with analytical engines to your backend team.',
  },
  createCandidateNote: { body: 'Phone screen went well: strong on API design, wants to start in May.', applicationId: EXAMPLE_IDS.application },
  updateCandidateNote: { body: 'Phone screen went well: strong on API design, wants to start in May (notice period: 6 weeks).' },
  updateApplicationStatus: { status: 'IN_REVIEW', reason: 'Strong API background', expectedStatus: 'ACTIVE' },
  createRejectionReason: { name: 'Relocation not possible', kind: 'REJECTION' },
  updateRejectionReason: { name: 'Relocation not possible for this role' },
  createWebhookSubscription: {
    url: 'https://hooks.example.com/recruiting',
    events: ['application.created', 'application.status_changed'],
  },
  updateWebhookSubscription: { events: ['application.created', 'job_listing.published'], active: true },
  createApiKey: { label: 'ATS sync', scopes: ['jobs:read', 'applications:read'] },
  updateApiKey: { label: 'ATS sync (production)' },
  updateBoardSettings: {
    slug: EXAMPLE_BOARD_SLUG,
    enabled: true,
    publicName: 'Nordlicht Software',
    intro: { en: 'We build software for the north.', de: 'Wir bauen Software für den Norden.' },
    accentColor: '#0b5fff',
    privacyPolicyUrl: 'https://nordlicht.example/privacy',
    showSalary: true,
  },
  updateCompanySettings: { name: 'Nordlicht Software GmbH', defaultLanguage: 'de', requiresListingReview: true },
  rejectJobListing: { reason: 'Please add the salary range and the team size before this goes live.' },
  createInvitation: { email: 'linus.recruiter@example.com', role: 'MEMBER' },
};

type Schema = Record<string, unknown>;

const FIXED_TIME = '2026-03-02T09:30:00.000Z';

/** A realistic string for a field, by its name (and format). */
function stringFor(name: string, schema: Schema): string {
  const format = schema.format as string | undefined;
  if (format === 'uuid') {
    const byName: Record<string, string> = {
      id: EXAMPLE_IDS.jobListing,
      jobListingId: EXAMPLE_IDS.jobListing,
      applicationId: EXAMPLE_IDS.application,
      candidateId: EXAMPLE_IDS.candidate,
      companyId: EXAMPLE_IDS.company,
      subscriptionId: EXAMPLE_IDS.webhook,
      userId: EXAMPLE_IDS.user,
      changedByApiKeyId: EXAMPLE_IDS.apiKey,
      rejectionReasonId: EXAMPLE_IDS.rejectionReason,
    };
    return byName[name] ?? '3b5c7d9e-1f2a-4b4c-8d6e-7f8a9b0c1d2e';
  }
  if (format === 'date-time') return FIXED_TIME;
  if (format === 'date') return '2026-06-30';
  if (format === 'email') return 'ada.lovelace@example.com';
  if (format === 'uri' || format === 'url' || /url$/i.test(name)) return 'https://hooks.example.com/recruiting';
  const byName: Record<string, string> = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    name: 'Engineering',
    email: 'ada.lovelace@example.com',
    phone: '+44 20 7946 0958',
    headline: 'Analytical engine programmer',
    location: 'London, GB',
    position: 'Senior Backend Engineer (Node.js)',
    city: 'Berlin',
    street: 'Friedrichstraße 68',
    postalCode: '10117',
    country: 'DE',
    currency: 'EUR',
    language: 'en',
    sourceLanguage: 'en',
    message: 'Request validation failed',
    reason: 'Strong API background',
    label: 'ATS sync',
    field: 'position',
    path: '/public/v1/job-listings',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    key: 'rk_live_4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c',
    prefix: 'rk_live_4f9a',
    referenceNumber: 'ENG-2026-014',
    requirementText: 'Right to work in the EU',
    type: 'job_listing.published',
  };
  if (byName[name] !== undefined) return byName[name];
  const min = (schema.minLength as number | undefined) ?? 0;
  const text = 'Example text';
  return text.length >= min ? text : text.padEnd(min, '.');
}

function numberFor(name: string, schema: Schema, integer: boolean): number {
  const byName: Record<string, number> = {
    page: 0,
    size: 20,
    totalElements: 1,
    totalPages: 1,
    status: 200,
    salaryBase: 72000,
    salaryMax: 86000,
    latitude: 52.5163,
    longitude: 13.3889,
    stepOrder: 1,
    yearsOfExperience: 5,
    numberOfPositionsOpened: 2,
  };
  let value = byName[name] ?? (integer ? 1 : 1.5);
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return value;
}

/**
 * An example value for a schema of the document (components resolved through `$ref`): the
 * schema's own example when it has one, else one built from its type, field names and formats.
 */
export function exampleOf(schema: Schema, components: Record<string, Schema>, name = '', depth = 0): unknown {
  if (depth > 12) return null;
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? exampleOf(target, components, name, depth + 1) : null;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key] as Schema[] | undefined;
    if (members) {
      const nonNull = members.find((member) => member.type !== 'null') ?? members[0];
      return exampleOf(nonNull, components, name, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Schema[]).map((member) => exampleOf(member, components, name, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, components, key, depth + 1)]),
      );
    }
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      return [exampleOf(items, components, name, depth + 1)];
    }
    case 'string':
      return stringFor(name, schema);
    case 'integer':
      return numberFor(name, schema, true);
    case 'number':
      return numberFor(name, schema, false);
    case 'boolean':
      return name !== 'translated';
    case 'null':
      return null;
    default:
      return {};
  }
}
