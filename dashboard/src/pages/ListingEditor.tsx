// The job listing editor: every field of the contract's listing (details tab), and a human
// translation of every translated text into one language at a time (translations tab).
import { Badge, Button, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { FieldGroup, FormActions, Notice, Repeated, useAction } from '../components';
import { canonicalTag, isSource, languageLabel, listingLanguages, translatedLanguages, uniqueTags } from '../languages';
import { ErrorMessage, Loading } from '../ui';

type Listing = Schemas['JobListing'];
type Translated = NonNullable<Listing['jobDescription']>;
type Skill = Listing['skills'][number];

// The values the contract shows only by example; typed against the SDK so a change there fails the build.
const SKILL_TYPES: Array<NonNullable<Skill['type']>> = ['SKILL', 'LANGUAGE', 'DRIVING_LICENSE', 'CERTIFICATION', 'SOFTWARE'];
const EXPERT_TYPES: Array<NonNullable<Skill['expertType']>> = ['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'EXPERT'];
const PROFICIENCIES: Array<NonNullable<Skill['languageProficiency']>> = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2', 'NATIVE'];
const DRIVING_CLASSES: Array<NonNullable<Skill['drivingClass']>> = ['AM', 'A1', 'A2', 'A', 'B1', 'B', 'BE', 'C1', 'C1E', 'C', 'CE', 'D1', 'D1E', 'D', 'DE', 'T'];
const EDUCATION: Array<NonNullable<Listing['educationLevel']>> = ['NONE', 'PRIMARY', 'SECONDARY', 'VOCATIONAL', 'ASSOCIATE', 'BACHELOR', 'MASTER', 'DOCTORATE'];
const INTERVALS: Array<NonNullable<Listing['paymentInterval']>> = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const SALARY_TYPES: Array<NonNullable<Listing['salaryType']>> = ['GROSS', 'NET'];

const words = (value: string) => value.replace(/_/g, ' ').toLowerCase();
const options = (values: string[]) => values.map((value) => ({ value, label: words(value) }));

interface SkillForm {
  value: string;
  type: string | null;
  expertType: string | null;
  languageProficiency: string | null;
  drivingClass: string | null;
}
/** One benefit or requirement: a row of its own (add, remove, reorder). */
interface LineForm {
  text: string;
}
interface StepForm {
  stepName: string;
  description: string;
}

/** The editable fields, as form values. */
interface Form {
  position: string;
  positionType: string;
  workPlaceType: string;
  language: string;
  sectorId: string | null;
  tagIds: string[];
  street: string;
  city: string;
  state: string;
  postalCode: string;
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
  salaryType: string | null;
  paymentInterval: string | null;
  salaryDescription: string;
  benefits: LineForm[];
  educationLevel: string | null;
  fieldOfStudy: string;
  yearsOfExperience: number | string;
  numberOfPositionsOpened: number | string;
  availableForEveryCountry: boolean;
  jobListingEndDate: string;
  referenceNumber: string;
  steps: StepForm[];
  requirements: LineForm[];
}

const EMPTY: Form = {
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

const original = (text: Translated | null | undefined) => text?.original ?? '';

function formOf(listing: Listing): Form {
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

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const numberOrNull = (value: number | string) => (value === '' || value === null ? null : Number(value));
const lines = (rows: LineForm[]) => rows.map((row) => row.text.trim()).filter(Boolean);

/** The request body for the form: every field on create, only the changed ones on edit. */
function bodyOf(form: Form, before: Form | undefined): Record<string, unknown> {
  const address = {
    street: orNull(form.street),
    city: orNull(form.city),
    state: orNull(form.state),
    postalCode: orNull(form.postalCode),
    country: orNull(form.country.toUpperCase()),
    latitude: numberOrNull(form.latitude),
    longitude: numberOrNull(form.longitude),
  };
  const full: Record<string, unknown> = {
    position: form.position.trim(),
    positionType: form.positionType,
    workPlaceType: form.workPlaceType,
    sectorId: form.sectorId,
    jobListingTags: form.tagIds.map((tagId) => ({ tagId })),
    address: Object.values(address).some((value) => value !== null) ? address : null,
    isStartDate: form.startDate ? true : null,
    startDate: orNull(form.startDate),
    jobDescription: orNull(form.jobDescription),
    requirementsSummary: orNull(form.requirementsSummary),
    personalQualitiesSummary: orNull(form.personalQualitiesSummary),
    skills: form.skills
      .filter((skill) => skill.value.trim())
      .map((skill) => ({
        value: skill.value.trim(),
        type: skill.type,
        expertType: skill.expertType,
        languageProficiency: skill.type === 'LANGUAGE' ? skill.languageProficiency : null,
        drivingClass: skill.type === 'DRIVING_LICENSE' ? skill.drivingClass : null,
      })),
    currency: orNull(form.currency),
    salaryBase: numberOrNull(form.salaryBase),
    isSalaryMax: form.salaryMax === '' ? null : true,
    salaryMax: numberOrNull(form.salaryMax),
    salaryType: form.salaryType,
    paymentInterval: form.paymentInterval,
    salaryDescription: orNull(form.salaryDescription),
    benefits: lines(form.benefits),
    educationLevel: form.educationLevel,
    fieldOfStudy: orNull(form.fieldOfStudy),
    yearsOfExperience: numberOrNull(form.yearsOfExperience),
    numberOfPositionsOpened: numberOrNull(form.numberOfPositionsOpened),
    availableForEveryCountry: form.availableForEveryCountry,
    jobListingEndDate: orNull(form.jobListingEndDate),
    referenceNumber: orNull(form.referenceNumber),
    hiringProcessSteps: form.steps
      .filter((step) => step.stepName.trim())
      .map((step, index) => ({ stepOrder: index + 1, stepName: step.stepName.trim(), description: orNull(step.description) })),
    jobListingRequirements: lines(form.requirements).map((requirementText) => ({ requirementText })),
  };
  if (!before) return form.language.trim() ? { ...full, language: form.language.trim() } : full;
  const old = bodyOf(before, undefined);
  // Only what changed: an unchanged text keeps its translations.
  return Object.fromEntries(Object.entries(full).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(old[key])));
}

function ListingForm({ listing, onSaved, onClose }: { listing: Listing | undefined; onSaved: (listing: Listing) => void; onClose: () => void }) {
  const before = useMemo(() => (listing ? formOf(listing) : undefined), [listing]);
  const [form, setForm] = useState<Form>(before ?? EMPTY);
  const saving = useAction();
  const enums = useLoad(() => call(api.GET('/public/v1/enums')), []);
  const sectors = useLoad(() => call(api.GET('/public/v1/sectors')), []);
  const tags = useLoad(() => call(api.GET('/public/v1/tags')), []);
  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));
  const text = (key: keyof Form) => ({
    value: form[key] as string,
    onChange: (event: { currentTarget: { value: string } }) => set(key)(event.currentTarget.value as never),
  });

  const save = () =>
    void saving.run(async () => {
      const body = bodyOf(form, before);
      const saved = listing
        ? await call(api.PATCH('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, body: body as never }))
        : await call(api.POST('/public/v1/job-listings', { body: body as never }));
      onSaved(saved as Listing);
    });

  return (
    <Stack>
      <TextInput label="Position" required withAsterisk={false} maxLength={300} {...text('position')} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Position type" data={enums.data?.PositionType ?? [form.positionType]} value={form.positionType} onChange={(value) => set('positionType')(value ?? 'FULL_TIME')} allowDeselect={false} />
        <Select label="Workplace" data={enums.data?.WorkPlaceType ?? [form.workPlaceType]} value={form.workPlaceType} onChange={(value) => set('workPlaceType')(value ?? 'ON_SITE')} allowDeselect={false} />
        {!listing && <TextInput label="Language of the texts" description="BCP 47, e.g. en; empty: the company's default" maxLength={35} {...text('language')} />}
        <Select label="Sector" searchable clearable data={(sectors.data ?? []).map((sector) => ({ value: sector.id, label: sector.name }))} value={form.sectorId} onChange={set('sectorId')} />
      </SimpleGrid>
      <MultiSelect
        label="Tags"
        searchable
        data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.name} (${words(tag.tagType)})` }))}
        value={form.tagIds}
        onChange={set('tagIds')}
      />
      <FieldGroup legend="Where">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Street" maxLength={300} {...text('street')} />
          <TextInput label="City" maxLength={200} {...text('city')} />
          <TextInput label="State or region" maxLength={200} {...text('state')} />
          <TextInput label="Postal code" maxLength={20} {...text('postalCode')} />
          <TextInput label="Country (ISO code)" maxLength={2} {...text('country')} />
          <Group grow gap="xs">
            <NumberInput label="Latitude" min={-90} max={90} decimalScale={6} value={form.latitude} onChange={set('latitude')} />
            <NumberInput label="Longitude" min={-180} max={180} decimalScale={6} value={form.longitude} onChange={set('longitude')} />
          </Group>
        </SimpleGrid>
      </FieldGroup>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Start date" type="date" {...text('startDate')} />
        <TextInput label="Listing end date" type="date" {...text('jobListingEndDate')} />
      </SimpleGrid>
      <Textarea label="Job description" autosize minRows={3} maxLength={20000} {...text('jobDescription')} />
      <Textarea label="Requirements summary" autosize minRows={2} maxLength={10000} {...text('requirementsSummary')} />
      <Textarea label="Personal qualities" autosize minRows={2} maxLength={10000} {...text('personalQualitiesSummary')} />
      <Repeated<LineForm> legend="Requirements" noun="requirement" items={form.requirements} onChange={set('requirements')} blank={{ text: '' }} max={100}>
        {(row, update, index) => (
          <Textarea label={`Requirement ${index + 1}`} autosize minRows={1} maxLength={1000} value={row.text} onChange={(event) => update({ text: event.currentTarget.value })} />
        )}
      </Repeated>
      <Repeated<SkillForm>
        legend="Skills"
        noun="skill"
        items={form.skills}
        onChange={set('skills')}
        blank={{ value: '', type: 'SKILL', expertType: null, languageProficiency: null, drivingClass: null }}
      >
        {(skill, update, index) => (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <TextInput label={`Skill ${index + 1}`} maxLength={200} value={skill.value} onChange={(event) => update({ value: event.currentTarget.value })} />
            <Select label={`Kind of skill ${index + 1}`} data={options(SKILL_TYPES)} clearable value={skill.type} onChange={(value) => update({ type: value })} />
            <Select label={`Level of skill ${index + 1}`} data={options(EXPERT_TYPES)} clearable value={skill.expertType} onChange={(value) => update({ expertType: value })} />
            {skill.type === 'LANGUAGE' && (
              <Select label={`Language level of skill ${index + 1}`} data={PROFICIENCIES} clearable value={skill.languageProficiency} onChange={(value) => update({ languageProficiency: value })} />
            )}
            {skill.type === 'DRIVING_LICENSE' && (
              <Select label={`Licence class of skill ${index + 1}`} data={DRIVING_CLASSES} clearable value={skill.drivingClass} onChange={(value) => update({ drivingClass: value })} />
            )}
          </SimpleGrid>
        )}
      </Repeated>
      <Repeated<LineForm> legend="Benefits" noun="benefit" items={form.benefits} onChange={set('benefits')} blank={{ text: '' }}>
        {(row, update, index) => (
          <TextInput label={`Benefit ${index + 1}`} maxLength={500} value={row.text} onChange={(event) => update({ text: event.currentTarget.value })} />
        )}
      </Repeated>
      <FieldGroup legend="Salary">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Currency" placeholder="EUR" maxLength={3} {...text('currency')} />
          <NumberInput label="Salary from" min={0} value={form.salaryBase} onChange={set('salaryBase')} />
          <NumberInput label="Salary up to" min={0} value={form.salaryMax} onChange={set('salaryMax')} />
          <Select label="Gross or net" data={options(SALARY_TYPES)} clearable value={form.salaryType} onChange={set('salaryType')} />
          <Select label="Paid" data={options(INTERVALS)} clearable value={form.paymentInterval} onChange={set('paymentInterval')} />
          <TextInput label="Reference number" maxLength={100} {...text('referenceNumber')} />
        </SimpleGrid>
        <TextInput label="Salary note" maxLength={2000} {...text('salaryDescription')} />
      </FieldGroup>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Education" data={options(EDUCATION)} clearable value={form.educationLevel} onChange={set('educationLevel')} />
        <TextInput label="Field of study" maxLength={300} {...text('fieldOfStudy')} />
        <NumberInput label="Years of experience" min={0} max={70} value={form.yearsOfExperience} onChange={set('yearsOfExperience')} />
        <NumberInput label="Open positions" min={1} value={form.numberOfPositionsOpened} onChange={set('numberOfPositionsOpened')} />
      </SimpleGrid>
      <Checkbox label="Candidates from any country may apply" checked={form.availableForEveryCountry} onChange={(event) => set('availableForEveryCountry')(event.currentTarget.checked)} />
      <Repeated<StepForm> legend="Hiring process" noun="step" items={form.steps} onChange={set('steps')} blank={{ stepName: '', description: '' }}>
        {(step, update, index) => (
          <>
            <TextInput label={`Step ${index + 1}`} maxLength={200} value={step.stepName} onChange={(event) => update({ stepName: event.currentTarget.value })} />
            <Textarea label={`What happens in step ${index + 1}`} autosize minRows={1} maxLength={5000} value={step.description} onChange={(event) => update({ description: event.currentTarget.value })} />
          </>
        )}
      </Repeated>
      <ErrorMessage error={saving.error} title="Could not save the listing" />
      <FormActions submitLabel={listing ? 'Save changes' : 'Create listing'} onSubmit={save} onCancel={onClose} busy={saving.busy} disabled={!form.position.trim()} />
    </Stack>
  );
}

const SINGLE_TEXTS = [
  ['position', 'Position'],
  ['jobDescription', 'Job description'],
  ['requirementsSummary', 'Requirements summary'],
  ['personalQualitiesSummary', 'Personal qualities'],
  ['salaryDescription', 'Salary note'],
  ['fieldOfStudy', 'Field of study'],
] as const;
type SingleKey = (typeof SINGLE_TEXTS)[number][0];

function TranslationType({ text }: { text: { translated: boolean; translationType: 'HUMAN' | 'AI' | null } }) {
  if (!text.translated) {
    return (
      <Badge variant="outline" color="gray">
        not translated
      </Badge>
    );
  }
  return (
    <Badge variant="outline" color={text.translationType === 'AI' ? 'grape' : 'teal'}>
      {text.translationType === 'AI' ? 'AI translation' : 'Human translation'}
    </Badge>
  );
}

/** What the human has written for one language; an empty string is "no human translation". */
interface Draft {
  single: Partial<Record<SingleKey, string>>;
  benefits: string[];
  skills: string[];
  steps: Record<string, { stepName: string; description: string }>;
}

/** A human translation is prefilled; an AI one is only shown (saving it would make it a human one). */
const human = (text: Translated | null | undefined) => (text?.translated && text.translationType === 'HUMAN' ? text.value : '');

function draftOf(texts: Listing): Draft {
  return {
    single: Object.fromEntries(SINGLE_TEXTS.map(([key]) => [key, human(texts[key])])),
    benefits: texts.benefits.map(human),
    skills: texts.skills.map((skill) => human(skill.value)),
    steps: Object.fromEntries(texts.hiringProcessSteps.map((step) => [step.id, { stepName: human(step.stepName), description: human(step.description) }])),
  };
}

/** All or none: the API takes one translation per benefit (or skill), in order. */
function listProblem(values: string[], noun: string): string | undefined {
  const filled = values.filter((value) => value.trim()).length;
  return filled > 0 && filled < values.length ? `Translate every ${noun} or none (${filled} of ${values.length} filled).` : undefined;
}

function bodyOfDraft(draft: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.single)) if (value?.trim()) body[key] = value.trim();
  if (draft.benefits.length && draft.benefits.every((value) => value.trim())) body.benefits = draft.benefits.map((value) => value.trim());
  if (draft.skills.length && draft.skills.every((value) => value.trim())) body.skills = draft.skills.map((value) => value.trim());
  const steps = Object.entries(draft.steps)
    .map(([id, step]) => ({ id, ...(step.stepName.trim() ? { stepName: step.stepName.trim() } : {}), ...(step.description.trim() ? { description: step.description.trim() } : {}) }))
    .filter((step) => Object.keys(step).length > 1);
  if (steps.length) body.hiringProcessSteps = steps;
  return body;
}

/** One translated text: its label, how it is translated now, the original and the input. */
function TranslatedField({
  label,
  language,
  text,
  value,
  onChange,
  long,
}: {
  label: string;
  language: string;
  text: Translated;
  value: string;
  onChange: (value: string) => void;
  long?: boolean;
}) {
  const Field = long ? Textarea : TextInput;
  return (
    <Stack gap={4} data-testid="translated-field">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <TranslationType text={text} />
      </Group>
      <Text size="xs" c="dimmed">
        Original: {text.original}
      </Text>
      <Field
        aria-label={`${label} in ${language}`}
        value={value}
        placeholder={text.translated && text.translationType === 'AI' ? `AI: ${text.value}` : undefined}
        onChange={(event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value)}
        {...(long ? { autosize: true, minRows: 2 } : {})}
      />
    </Stack>
  );
}

/**
 * The languages to translate into: those the listing has translations in, the company's default
 * language and the languages its listings are written in, and any added here; never the source.
 */
function LanguagePicker({ listing, value, onChange, round }: { listing: Listing; value: string | undefined; onChange: (language: string) => void; round: number }) {
  const source = listing.position.sourceLanguage;
  const [added, setAdded] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  const known = useLoad(async () => {
    const [company, written, translated] = await Promise.all([
      call(api.GET('/settings/company')),
      listingLanguages(),
      translatedLanguages(listing.id),
    ]);
    return { own: uniqueTags([company.defaultLanguage, ...written]), translated };
    // `round` counts the translations saved here: a new one is then marked as translated.
  }, [listing.id, listing.updatedAt, round]);
  const translated = known.data?.translated ?? [];
  const offered = uniqueTags([...translated, ...(known.data?.own ?? []), ...added, value]).filter((tag) => !isSource(tag, source));
  // The first offered language (a translated one when there is any) is shown at once.
  const first = offered[0];
  useEffect(() => {
    if (!value && known.data && first) onChange(first);
  }, [known.data, value, first, onChange]);
  const add = () => {
    const tag = canonicalTag(typed);
    if (!tag) return setProblem(`“${typed.trim()}” is not a language tag (BCP 47, e.g. de, pt-BR, zh-Hant).`);
    if (isSource(tag, source)) return setProblem(`The texts are written in ${tag}: choose another language.`);
    setProblem(undefined);
    setTyped('');
    setAdded((current) => uniqueTags([...current, tag]));
    onChange(tag);
  };
  return (
    <Stack gap="xs">
      {known.error && <ErrorMessage error={known.error} title="Could not find the listing's languages" />}
      <Group align="flex-start" wrap="wrap">
        <Select
          label="Translate into"
          searchable
          w={{ base: '100%', sm: 300 }}
          placeholder={known.loading && !known.data ? 'Finding the languages…' : offered.length === 0 ? 'Add a language first' : undefined}
          data={offered.map((tag) => ({ value: tag, label: `${languageLabel(tag)}${translated.includes(tag) ? ' · translated' : ''}` }))}
          value={value ?? null}
          onChange={(next) => next && onChange(next)}
          allowDeselect={false}
          nothingFoundMessage="No such language here: add it"
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <Group align="flex-start" gap="xs">
            <TextInput
              label="Add a language"
              description="BCP 47 tag, e.g. fr or pt-BR"
              maxLength={35}
              w={200}
              value={typed}
              error={problem}
              onChange={(event) => {
                setTyped(event.currentTarget.value);
                setProblem(undefined);
              }}
            />
            <Button type="submit" variant="default" mt={44} disabled={!typed.trim()}>
              Add
            </Button>
          </Group>
        </form>
      </Group>
    </Stack>
  );
}

function Translations({ listing }: { listing: Listing }) {
  const source = listing.position.sourceLanguage;
  const [language, setLanguage] = useState<string>();
  const [draft, setDraft] = useState<Draft>();
  const [saved, setSaved] = useState(false);
  const [round, setRound] = useState(0);
  const saving = useAction();
  const shown = useLoad(
    () =>
      language
        ? (call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, headers: { 'accept-language': language } })) as Promise<Listing>)
        : Promise.resolve(undefined),
    [language, listing.id, listing.updatedAt],
  );
  // From what useLoad kept: a late answer for the language switched away from never fills the form.
  useEffect(() => {
    if (shown.data) setDraft(draftOf(shown.data));
  }, [shown.data]);
  const problems = draft ? [listProblem(draft.benefits, 'benefit'), listProblem(draft.skills, 'skill')].filter(Boolean) : [];
  const body = draft ? bodyOfDraft(draft) : {};
  const save = () =>
    void saving.run(async () => {
      setSaved(false);
      if (!language) return;
      await call(api.PUT('/public/v1/job-listings/{id}/translations/{lang}', { params: { path: { id: listing.id, lang: language } }, body: body as never }));
      setSaved(true);
      setRound((n) => n + 1);
      shown.reload();
    });
  const texts = shown.data;
  const choose = useCallback((next: string) => {
    setSaved(false);
    setDraft(undefined);
    setLanguage(next);
  }, []);
  const setSingle = (key: SingleKey) => (value: string) => setDraft((current) => current && { ...current, single: { ...current.single, [key]: value } });
  const setAt = (list: 'benefits' | 'skills', index: number) => (value: string) =>
    setDraft((current) => current && { ...current, [list]: current[list].map((item, at) => (at === index ? value : item)) });
  const setStep = (id: string, part: 'stepName' | 'description') => (value: string) =>
    setDraft((current) => current && { ...current, steps: { ...current.steps, [id]: { ...current.steps[id], [part]: value } } });

  return (
    <Stack>
      <Text size="sm">
        Texts are written in <strong>{languageLabel(source)}</strong>. What you enter here is a human translation, and replaces the earlier human translation into
        that language; machine translations (when the server has a translator) are marked as AI, and a human one always wins.
      </Text>
      <LanguagePicker listing={listing} value={language} onChange={choose} round={round} />
      {listing.jobListingRequirements.length > 0 && (
        <Text size="xs" c="dimmed">
          Requirements are plain text in the API (not translated texts), so they have no translation.
        </Text>
      )}
      {shown.error && <ErrorMessage error={shown.error} title="Could not load the translation" />}
      {language && (!texts || !draft) && !shown.error && <Loading label="Loading the translation" />}
      {language && texts && draft && (
        <>
          {SINGLE_TEXTS.map(([key, label]) => {
            const text = texts[key];
            return text ? <TranslatedField key={key} label={label} language={language} text={text} value={draft.single[key] ?? ''} onChange={setSingle(key)} long={key !== 'position' && key !== 'fieldOfStudy'} /> : null;
          })}
          {texts.benefits.length > 0 && (
            <FieldGroup legend="Benefits">
              {texts.benefits.map((benefit, index) => (
                <TranslatedField key={index} label={`Benefit ${index + 1}`} language={language} text={benefit} value={draft.benefits[index] ?? ''} onChange={setAt('benefits', index)} />
              ))}
            </FieldGroup>
          )}
          {texts.skills.length > 0 && (
            <FieldGroup legend="Skills">
              {texts.skills.map((skill, index) => (
                <TranslatedField key={index} label={`Skill ${index + 1}`} language={language} text={skill.value} value={draft.skills[index] ?? ''} onChange={setAt('skills', index)} />
              ))}
            </FieldGroup>
          )}
          {texts.hiringProcessSteps.length > 0 && (
            <FieldGroup legend="Hiring process">
              {texts.hiringProcessSteps.map((step, index) => (
                <Stack key={step.id} gap="xs">
                  <TranslatedField label={`Step ${index + 1}`} language={language} text={step.stepName} value={draft.steps[step.id]?.stepName ?? ''} onChange={setStep(step.id, 'stepName')} />
                  {step.description && (
                    <TranslatedField
                      label={`Step ${index + 1} description`}
                      language={language}
                      text={step.description}
                      value={draft.steps[step.id]?.description ?? ''}
                      onChange={setStep(step.id, 'description')}
                      long
                    />
                  )}
                </Stack>
              ))}
            </FieldGroup>
          )}
        </>
      )}
      {problems.map((problem) => (
        <Text key={problem} size="sm" c="red.9">
          {problem}
        </Text>
      ))}
      <ErrorMessage error={saving.error} title="Could not save the translation" />
      <Notice>{saved && 'Translation saved.'}</Notice>
      <FormActions submitLabel="Save translation" onSubmit={save} busy={saving.busy} disabled={!language || !draft || problems.length > 0 || Object.keys(body).length === 0} />
    </Stack>
  );
}

export function ListingEditor({ id, onChanged, onClose }: { id: string | 'new'; onChanged: () => void; onClose: () => void }) {
  const listing = useLoad(() => (id === 'new' ? Promise.resolve(undefined) : call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }))), [id]);
  const [tab, setTab] = useState<string | null>('details');
  const [current, setCurrent] = useState<Listing>();
  const shown = (current ?? listing.data) as Listing | undefined;
  if (id !== 'new' && !shown) return listing.error ? <ErrorMessage error={listing.error} /> : <Loading label="Loading the listing" />;
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="md">
        <Tabs.Tab value="details">Details</Tabs.Tab>
        {shown && <Tabs.Tab value="translations">Translations</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="details">
        {shown?.rejectionReason && (
          <Text c="red.9" size="sm" mb="sm">
            Sent back by the reviewer: {shown.rejectionReason}
          </Text>
        )}
        <ListingForm
          key={shown?.updatedAt ?? 'new'}
          listing={shown}
          onClose={onClose}
          onSaved={(saved) => {
            setCurrent(saved);
            onChanged();
            if (id === 'new') onClose();
          }}
        />
      </Tabs.Panel>
      {shown && (
        <Tabs.Panel value="translations">
          <Translations listing={shown} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
