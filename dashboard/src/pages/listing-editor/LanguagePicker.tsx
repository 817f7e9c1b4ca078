// Which language the translations tab writes: one the listing is translated into, the company's
// default, a language its listings are written in, or one added here; never the source language.
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, call, useLoad } from '../../api';
import { canonicalTag, isSource, languageLabel, listingLanguages, translatedLanguages, uniqueTags } from '../../languages';
import { ErrorMessage } from '../../ui';
import type { Listing } from './form';

export function LanguagePicker({ listing, value, onChange, round }: { listing: Listing; value: string | undefined; onChange: (language: string) => void; round: number }) {
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
