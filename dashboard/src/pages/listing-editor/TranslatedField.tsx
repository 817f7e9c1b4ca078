// One translated text in the translations tab: its label, how it is translated now, the original
// and the input for the human translation.
import { Badge, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { languageName } from '../../labels';
import type { Listing } from './form';

type Translated = NonNullable<Listing['jobDescription']>;

function TranslationType({ text }: { text: Translated }) {
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

export function TranslatedField({
  label,
  language,
  text,
  value,
  onChange,
  long,
  error,
}: {
  label: string;
  language: string;
  text: Translated;
  value: string;
  onChange: (value: string) => void;
  long?: boolean;
  /** The API's refusal of this text, shown at the field. */
  error?: string;
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
        aria-label={`${label} in ${languageName(language)}`}
        value={value}
        placeholder={text.translated && text.translationType === 'AI' ? `AI: ${text.value}` : undefined}
        error={error}
        onChange={(event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value)}
        {...(long ? { autosize: true, minRows: 2 } : {})}
      />
    </Stack>
  );
}
