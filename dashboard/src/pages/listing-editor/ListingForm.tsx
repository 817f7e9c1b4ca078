// The details tab: the listing's fields, created or saved through the typed client.
import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import { api, call } from '../../api';
import { FormActions, useAction } from '../../components';
import { ErrorMessage } from '../../ui';
import { EMPTY, formOf, useFields, type Listing } from './form';
import { BasicsSection, CandidateSection, DescriptionSection, HiringProcessSection, SalarySection, SkillsSection, WhereSection } from './sections';
import { createBody, updateBody } from './submit';

export function ListingForm({ listing, onSaved, onClose }: { listing: Listing | undefined; onSaved: (listing: Listing) => void; onClose: () => void }) {
  const before = useMemo(() => (listing ? formOf(listing) : undefined), [listing]);
  const fields = useFields(before ?? EMPTY);
  const { form } = fields;
  const saving = useAction();

  const save = () =>
    void saving.run(async () => {
      const saved =
        listing && before
          ? await call(api.PATCH('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, body: updateBody(form, before) }))
          : await call(api.POST('/public/v1/job-listings', { body: createBody(form) }));
      onSaved(saved);
    });

  return (
    <Stack>
      <BasicsSection {...fields} creating={!listing} />
      <WhereSection {...fields} />
      <DescriptionSection {...fields} />
      <SkillsSection {...fields} />
      <SalarySection {...fields} />
      <CandidateSection {...fields} />
      <HiringProcessSection {...fields} />
      <ErrorMessage error={saving.error} title="Could not save the listing" />
      <FormActions submitLabel={listing ? 'Save changes' : 'Create listing'} onSubmit={save} busy={saving.busy} onCancel={onClose} disabled={!form.position.trim()} />
    </Stack>
  );
}
