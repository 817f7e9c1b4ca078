// One translated text in the translations tab: its label, how it is translated now, the original
// and the input for the human translation.
import { Badge, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
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
