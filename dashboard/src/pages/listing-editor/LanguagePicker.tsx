// Which language the translations tab writes: one the listing is translated into, the company's
// default, a language its listings are written in, or one added here; never the source language.
import { Group, Select, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, call, useLoad } from '../../api';
import { canonicalTag, isSource, languageLabel, listingLanguages, translatedLanguages, uniqueTags } from '../../languages';
import { languageOptions } from '../../labels';
import { ErrorMessage } from '../../ui';
import type { Listing } from './form';

export function LanguagePicker({ listing, value, onChange, round }: { listing: Listing; value: string | undefined; onChange: (language: string) => void; round: number }) {
  const source = listing.position.sourceLanguage;
  const [added, setAdded] = useState<string[]>([]);
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
  const add = (typed: string | null) => {
    const tag = typed ? canonicalTag(typed) : undefined;
    if (!tag) return;
    if (isSource(tag, source)) return setProblem(`The texts are already written in ${languageLabel(tag)}: choose another language.`);
    setProblem(undefined);
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
        <Select
          label="Add a language"
          description="Search by name, e.g. French"
          searchable
          w={{ base: '100%', sm: 240 }}
          placeholder="Choose a language"
          nothingFoundMessage="No language by that name"
          data={languageOptions().filter((option) => !offered.includes(option.value))}
          value={null}
          error={problem}
          onChange={(next) => add(next)}
        />
      </Group>
    </Stack>
  );
}
