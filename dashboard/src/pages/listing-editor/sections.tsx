// The details form, section by section, in the order the form shows them. Each section renders
// its fields from the form's values and changes them through `set` (form.ts).
import { Button, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Text, Textarea, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api, call, useLoad } from '../../api';
import { FieldGroup, Repeated } from '../../components';
import { countryName, countryOptions, currencyOptions, EDUCATION_LABELS, EXPERTISE_LABELS, humanize, languageOptions, PAYMENT_INTERVAL_LABELS, POSITION_TYPE_LABELS, SALARY_TYPE_LABELS, SKILL_TYPE_LABELS, WORK_PLACE_LABELS } from '../../labels';
import type { Fields, LineForm, Listing, SkillForm, StepForm } from './form';

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
/** Select options in words: the label map's, or the value in sentence case. */
const options = <Value extends string>(values: Value[], labels: Record<string, string> = {}) => values.map((value) => ({ value, label: labels[value] ?? humanize(value) }));

/** Position, kinds of work, language (on create only), sector and tags. */
export function BasicsSection({ form, set, text, creating }: Fields & { creating: boolean }) {
  const enums = useLoad(() => call(api.GET('/public/v1/enums')), []);
  const sectors = useLoad(() => call(api.GET('/public/v1/sectors')), []);
  const tags = useLoad(() => call(api.GET('/public/v1/tags')), []);
  const languages = useMemo(() => languageOptions(form.language ? [form.language] : []), [form.language]);
  return (
    <>
      <TextInput label="Position" required withAsterisk={false} maxLength={300} {...text('position')} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Position type" data={options(enums.data?.PositionType ?? [form.positionType], POSITION_TYPE_LABELS)} value={form.positionType} onChange={(value) => set('positionType')(value ?? 'FULL_TIME')} allowDeselect={false} />
        <Select label="Workplace" data={options(enums.data?.WorkPlaceType ?? [form.workPlaceType], WORK_PLACE_LABELS)} value={form.workPlaceType} onChange={(value) => set('workPlaceType')(value ?? 'ON_SITE')} allowDeselect={false} />
        {creating && (
          <Select
            label="Language of the texts"
            description="Empty: the company's default language"
            placeholder="The company's default"
            searchable
            clearable
            nothingFoundMessage="No language by that name"
            data={languages}
            value={form.language || null}
            onChange={(value) => set('language')(value ?? '')}
          />
        )}
        <Select label="Sector" searchable clearable data={(sectors.data ?? []).map((sector) => ({ value: sector.id, label: sector.name }))} value={form.sectorId} onChange={set('sectorId')} />
      </SimpleGrid>
      <MultiSelect
        label="Tags"
        searchable
        data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.name} (${words(tag.tagType)})` }))}
        value={form.tagIds}
        onChange={set('tagIds')}
      />
    </>
  );
}

export function WhereSection({ form, set, text }: Fields) {
  // Coordinates are for a map pin only (the service does not derive them from the address): out of the way unless set.
  const [exact, setExact] = useState(form.latitude !== '' || form.longitude !== '');
  const country = form.country.trim().toUpperCase();
  const countries = useMemo(() => countryOptions([country]), [country]);
  return (
    <FieldGroup legend="Where">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Street" maxLength={300} {...text('street')} />
        <TextInput label="City" maxLength={200} {...text('city')} />
        <TextInput label="State or region" maxLength={200} {...text('state')} />
        <TextInput label="Postal code" maxLength={20} {...text('postalCode')} />
        <Select
          label="Country"
          searchable
          clearable
          nothingFoundMessage="No country by that name"
          data={countries}
          value={country || null}
          onChange={(value) => set('country')(value ?? '')}
        />
      </SimpleGrid>
      <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setExact((open) => !open)} aria-expanded={exact}>
        {exact ? 'Hide exact location' : 'Exact location (map pin)'}
      </Button>
      {exact && (
        <div>
        <Text size="xs" c="dimmed" mt="xs">
          Only for a map on a careers page; {country ? `the address in ${countryName(country)} is enough for candidates.` : 'the address is enough for candidates.'}
        </Text>
        <Group grow gap="xs">
          <NumberInput label="Latitude" min={-90} max={90} decimalScale={6} value={form.latitude} onChange={set('latitude')} />
          <NumberInput label="Longitude" min={-180} max={180} decimalScale={6} value={form.longitude} onChange={set('longitude')} />
        </Group>
        </div>
      )}
    </FieldGroup>
  );
}

/** The dates, the three descriptive texts and the requirements. */
export function DescriptionSection({ form, set, text }: Fields) {
  return (
    <>
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
    </>
  );
}

/** Skills (a language skill has a level, a driving licence a class) and benefits. */
export function SkillsSection({ form, set }: Fields) {
  return (
    <>
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
            <Select label={`Kind of skill ${index + 1}`} data={options(SKILL_TYPES, SKILL_TYPE_LABELS)} clearable value={skill.type} onChange={(value) => update({ type: value })} />
            <Select label={`Level of skill ${index + 1}`} data={options(EXPERT_TYPES, EXPERTISE_LABELS)} clearable value={skill.expertType} onChange={(value) => update({ expertType: value })} />
            {skill.type === 'LANGUAGE' && (
              <Select
                label={`Language level of skill ${index + 1}`}
                data={PROFICIENCIES}
                clearable
                value={skill.languageProficiency}
                onChange={(value) => update({ languageProficiency: value })}
              />
            )}
            {skill.type === 'DRIVING_LICENSE' && (
              <Select label={`Licence class of skill ${index + 1}`} data={DRIVING_CLASSES} clearable value={skill.drivingClass} onChange={(value) => update({ drivingClass: value })} />
            )}
          </SimpleGrid>
        )}
      </Repeated>
      <Repeated<LineForm> legend="Benefits" noun="benefit" items={form.benefits} onChange={set('benefits')} blank={{ text: '' }}>
        {(row, update, index) => <TextInput label={`Benefit ${index + 1}`} maxLength={500} value={row.text} onChange={(event) => update({ text: event.currentTarget.value })} />}
      </Repeated>
    </>
  );
}

export function SalarySection({ form, set, text }: Fields) {
  const currencies = useMemo(() => currencyOptions([form.currency]), [form.currency]);
  return (
    <FieldGroup legend="Salary">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select label="Currency" searchable clearable nothingFoundMessage="No currency by that name" data={currencies} value={form.currency || null} onChange={(value) => set('currency')(value ?? '')} />
        <NumberInput label="Salary from" min={0} value={form.salaryBase} onChange={set('salaryBase')} />
        <NumberInput label="Salary up to" min={0} value={form.salaryMax} onChange={set('salaryMax')} />
        <Select label="Gross or net" data={options(SALARY_TYPES, SALARY_TYPE_LABELS)} clearable value={form.salaryType} onChange={set('salaryType')} />
        <Select label="Paid" data={options(INTERVALS, PAYMENT_INTERVAL_LABELS)} clearable value={form.paymentInterval} onChange={set('paymentInterval')} />
        <TextInput label="Reference number" maxLength={100} {...text('referenceNumber')} />
      </SimpleGrid>
      <TextInput label="Salary note" maxLength={2000} {...text('salaryDescription')} />
    </FieldGroup>
  );
}

/** Education, experience, openings and who may apply. */
export function CandidateSection({ form, set, text }: Fields) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Education" data={options(EDUCATION, EDUCATION_LABELS)} clearable value={form.educationLevel} onChange={set('educationLevel')} />
        <TextInput label="Field of study" maxLength={300} {...text('fieldOfStudy')} />
        <NumberInput label="Years of experience" min={0} max={70} value={form.yearsOfExperience} onChange={set('yearsOfExperience')} />
        <NumberInput label="Open positions" min={1} value={form.numberOfPositionsOpened} onChange={set('numberOfPositionsOpened')} />
      </SimpleGrid>
      <Checkbox label="Candidates from any country may apply" checked={form.availableForEveryCountry} onChange={(event) => set('availableForEveryCountry')(event.currentTarget.checked)} />
    </>
  );
}

export function HiringProcessSection({ form, set }: Fields) {
  return (
    <Repeated<StepForm> legend="Hiring process" noun="step" items={form.steps} onChange={set('steps')} blank={{ stepName: '', description: '' }}>
      {(step, update, index) => (
        <>
          <TextInput label={`Step ${index + 1}`} maxLength={200} value={step.stepName} onChange={(event) => update({ stepName: event.currentTarget.value })} />
          <Textarea
            label={`What happens in step ${index + 1}`}
            autosize
            minRows={1}
            maxLength={5000}
            value={step.description}
            onChange={(event) => update({ description: event.currentTarget.value })}
          />
        </>
      )}
    </Repeated>
  );
}
