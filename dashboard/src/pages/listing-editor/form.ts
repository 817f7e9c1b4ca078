// The details form's values: what a listing looks like as form fields, and the one way they change.
import { useState } from 'react';
import type { RequestBody, Schemas } from '../../api';

export type Listing = Schemas['JobListing'];
type Skill = Listing['skills'][number];
type Address = NonNullable<RequestBody<'/public/v1/job-listings', 'post'>['address']>;
export type Country = NonNullable<Address['country']>;

export interface SkillForm {
  value: string;
  type: Skill['type'];
  expertType: Skill['expertType'];
  languageProficiency: Skill['languageProficiency'];
  drivingClass: Skill['drivingClass'];
}
/** One benefit or requirement: a row of its own (add, remove, reorder). */
export interface LineForm {
  text: string;
}
export interface StepForm {
  stepName: string;
  description: string;
}

/** The editable fields, as form values (a number input holds '' while empty). */
export interface Form {
  position: string;
  positionType: Listing['positionType'];
  workPlaceType: Listing['workPlaceType'];
  language: string;
  sectorId: string | null;
  tagIds: string[];
  street: string;
  city: string;
  state: string;
  postalCode: string;
  /** As typed: the server checks it is an ISO code (a 422 naming `address.country` otherwise). */
  country: string;
  latitude: number | string;
  longitude: number | string;
  startDate: string;
  jobDescription: string;
  requirementsSummary: string;
  personalQualitiesSummary: string;
  skills: SkillForm[];
  currency: string;
  salaryBase: number | string;
  salaryMax: number | string;
  salaryType: Listing['salaryType'];
  paymentInterval: Listing['paymentInterval'];
  salaryDescription: string;
  benefits: LineForm[];
  educationLevel: Listing['educationLevel'];
  fieldOfStudy: string;
  yearsOfExperience: number | string;
  numberOfPositionsOpened: number | string;
  availableForEveryCountry: boolean;
  jobListingEndDate: string;
  referenceNumber: string;
  steps: StepForm[];
  requirements: LineForm[];
}

export const EMPTY: Form = {
  position: '',
  positionType: 'FULL_TIME',
  workPlaceType: 'ON_SITE',
  language: '',
  sectorId: null,
  tagIds: [],
  street: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  latitude: '',
  longitude: '',
  startDate: '',
  jobDescription: '',
  requirementsSummary: '',
  personalQualitiesSummary: '',
  skills: [],
  currency: '',
  salaryBase: '',
  salaryMax: '',
  salaryType: null,
  paymentInterval: null,
  salaryDescription: '',
  benefits: [],
  educationLevel: null,
  fieldOfStudy: '',
  yearsOfExperience: '',
  numberOfPositionsOpened: '',
  availableForEveryCountry: false,
  jobListingEndDate: '',
  referenceNumber: '',
  steps: [],
  requirements: [],
};

const original = (text: { original: string } | null | undefined) => text?.original ?? '';

export function formOf(listing: Listing): Form {
  const address = listing.address;
  return {
    position: listing.position.original,
    positionType: listing.positionType,
    workPlaceType: listing.workPlaceType,
    language: listing.position.sourceLanguage,
    sectorId: listing.sectorId,
    tagIds: listing.jobListingTags.map((tag) => tag.tagId),
    street: address?.street ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country ?? '',
    latitude: address?.latitude ?? '',
    longitude: address?.longitude ?? '',
    startDate: listing.startDate ?? '',
    jobDescription: original(listing.jobDescription),
    requirementsSummary: original(listing.requirementsSummary),
    personalQualitiesSummary: original(listing.personalQualitiesSummary),
    skills: listing.skills.map((skill) => ({
      value: skill.value.original,
      type: skill.type,
      expertType: skill.expertType,
      languageProficiency: skill.languageProficiency,
      drivingClass: skill.drivingClass,
    })),
    currency: listing.currency ?? '',
    salaryBase: listing.salaryBase ?? '',
    salaryMax: listing.salaryMax ?? '',
    salaryType: listing.salaryType,
    paymentInterval: listing.paymentInterval,
    salaryDescription: original(listing.salaryDescription),
    benefits: listing.benefits.map((benefit) => ({ text: benefit.original })),
    educationLevel: listing.educationLevel,
    fieldOfStudy: original(listing.fieldOfStudy),
    yearsOfExperience: listing.yearsOfExperience ?? '',
    numberOfPositionsOpened: listing.numberOfPositionsOpened ?? '',
    availableForEveryCountry: listing.availableForEveryCountry ?? false,
    jobListingEndDate: listing.jobListingEndDate ?? '',
    referenceNumber: listing.referenceNumber ?? '',
    steps: listing.hiringProcessSteps.map((step) => ({ stepName: step.stepName.original, description: step.description?.original ?? '' })),
    requirements: listing.jobListingRequirements.map((requirement) => ({ text: requirement.requirementText })),
  };
}

/** The fields held as plain text (a text input's value). */
export type TextKey = { [K in keyof Form]: string extends Form[K] ? (Form[K] extends string ? K : never) : never }[keyof Form];

/** The form's values and how a section changes them. */
export interface Fields {
  form: Form;
  set: <K extends keyof Form>(key: K) => (value: Form[K]) => void;
  /** A text input's value and onChange for one field. */
  text: (key: TextKey) => { value: string; onChange: (event: { currentTarget: { value: string } }) => void };
}

export function useFields(initial: Form): Fields {
  const [form, setForm] = useState(initial);
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((current) => ({ ...current, [key]: value }));
  const text = (key: TextKey) => ({ value: form[key], onChange: (event: { currentTarget: { value: string } }) => set(key)(event.currentTarget.value) });
  return { form, set, text };
}
