// Sample board and listings for the careers module's unit tests.
import type { CareersBoard, CareersJob } from '../../src/modules/careers/model.ts';
import { careersUrls } from '../../src/modules/careers/model.ts';

export const board: CareersBoard = {
  slug: 'acme',
  name: 'Acme & Söhne',
  intro: 'We build things.\n\nJoin us.',
  logoUrl: '/boards/acme/logo',
  accentColor: '#ffcc00',
  privacyPolicyUrl: 'https://acme.example/privacy',
};

export const urls = careersUrls('https://jobs.example.com/');

export function job(overrides: Partial<CareersJob> = {}): CareersJob {
  return {
    id: '0b9d5a0e-4a53-4c64-9e25-2c3b2c8a1f00',
    title: 'Backend engineer',
    positionType: 'FULL_TIME',
    workPlaceType: 'ON_SITE',
    address: { street: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
    publishedAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    language: 'en',
    description: 'You build our API.\nIn TypeScript.\n\nWith care.',
    requirementsSummary: 'Three years of Node.js.',
    skills: ['TypeScript', 'SQL'],
    benefits: ['Train pass'],
    validThrough: '2026-12-31T23:59:59.000Z',
    ...overrides,
  };
}
