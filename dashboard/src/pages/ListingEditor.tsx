// The job listing editor: every field of the contract's listing (details tab, listing-editor/
// ListingForm.tsx), and a human translation of every translated text into one language at a time
// (translations tab, listing-editor/Translations.tsx).
import { Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad } from '../api';
import { ErrorMessage, Loading } from '../ui';
import type { Listing } from './listing-editor/form';
import { ListingForm } from './listing-editor/ListingForm';
import { Translations } from './listing-editor/Translations';

export function ListingEditor({ id, onChanged, onClose }: { id: string | 'new'; onChanged: () => void; onClose: () => void }) {
  const listing = useLoad(() => (id === 'new' ? Promise.resolve(undefined) : call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }))), [id]);
  const [tab, setTab] = useState<string | null>('details');
  const [current, setCurrent] = useState<Listing>();
  const shown = current ?? listing.data;
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
