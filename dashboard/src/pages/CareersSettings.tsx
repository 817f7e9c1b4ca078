// The careers page section of Settings: the public job board's slug, on/off, public name, intro
// texts per language, logo, accent colour, privacy policy link and whether a CAPTCHA is asked
// (/settings/company/board). Members read; an admin changes.
import { Anchor, Badge, Button, Card, ColorInput, FileButton, Group, Image, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { SettingsSave, SettingSwitch, useAction } from '../components';
import { ErrorMessage, LoadState, useIsAdmin } from '../ui';

type Board = Schemas['BoardSettings'];

/** The languages offered for intro texts (the company's own are added). */
const INTRO_LANGUAGES = ['en', 'de'];

function BoardForm({ board, onSaved }: { board: Board; onSaved: () => void }) {
  const isAdmin = useIsAdmin();
  const [slug, setSlug] = useState(board.slug ?? '');
  const [enabled, setEnabled] = useState(board.enabled);
  const [publicName, setPublicName] = useState(board.publicName ?? '');
  const [intro, setIntro] = useState<Record<string, string>>(board.intro);
  const [accent, setAccent] = useState(board.accentColor ?? '');
  const [privacy, setPrivacy] = useState(board.privacyPolicyUrl ?? '');
  const [showSalary, setShowSalary] = useState(board.showSalary);
  const [saved, setSaved] = useState(false);
  const saving = useAction();
  const uploading = useAction();
  const [shown, setShown] = useState(board);
  if (shown !== board) {
    setShown(board);
    setSlug(board.slug ?? '');
    setEnabled(board.enabled);
    setPublicName(board.publicName ?? '');
    setIntro(board.intro);
    setAccent(board.accentColor ?? '');
    setPrivacy(board.privacyPolicyUrl ?? '');
    setShowSalary(board.showSalary);
  }
  const languages = [...new Set([...INTRO_LANGUAGES, ...Object.keys(board.intro)])];
  const save = () => {
    setSaved(false);
    void saving.run(async () => {
      await call(
        api.PATCH('/settings/company/board', {
          body: {
            slug: slug.trim() || null,
            enabled,
            publicName: publicName.trim() || null,
            intro,
            accentColor: accent.trim() || null,
            privacyPolicyUrl: privacy.trim() || null,
            showSalary,
          },
        }),
      );
      setSaved(true);
      onSaved();
    });
  };
  const upload = (file: File | null) => {
    if (!file) return;
    void uploading.run(async () => {
      await call(
        api.PUT('/settings/company/board/logo', {
          body: file as unknown as string,
          bodySerializer: (body: unknown) => body as File,
          headers: { 'content-type': file.type || 'application/octet-stream' },
        }),
      );
      onSaved();
    });
  };
  const publicPath = board.slug ? `/careers/${board.slug}` : undefined;
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">
            Careers page
          </Title>
          <Group gap="xs">
            <Badge color={board.enabled ? 'green' : 'gray'} variant="light">
              {board.enabled ? 'Published' : 'Off'}
            </Badge>
            {board.enabled && publicPath && (
              <Anchor href={publicPath} target="_blank" rel="noopener" size="sm">
                View careers page
              </Anchor>
            )}
          </Group>
        </Group>
        <TextInput
          label="Address (slug)"
          description={`Your careers page: ${window.location.origin}/careers/${slug || 'your-company'}. Lower-case letters, digits and hyphens.`}
          value={slug}
          onChange={(event) => setSlug(event.currentTarget.value)}
          disabled={!isAdmin}
          maxLength={50}
        />
        <SettingSwitch
          label="Careers page is on"
          description="Off: the careers page and the public job board answer 'not found'. Needs an address."
          checked={enabled}
          onChange={setEnabled}
        />
        <TextInput label="Public name" description="Shown instead of the company name when set." value={publicName} onChange={(event) => setPublicName(event.currentTarget.value)} disabled={!isAdmin} maxLength={200} />
        {languages.map((language) => (
          <Textarea
            key={language}
            label={`Intro text (${language})`}
            autosize
            minRows={2}
            value={intro[language] ?? ''}
            onChange={(event) => {
              const text = event.currentTarget.value;
              setIntro((current) => ({ ...current, [language]: text }));
            }}
            disabled={!isAdmin}
            maxLength={5000}
          />
        ))}
        <ColorInput label="Accent colour" placeholder="#0b5fff" format="hex" withEyeDropper={false} value={accent} onChange={setAccent} disabled={!isAdmin} />
        <TextInput
          label="Privacy policy link"
          description="Applicants agree to it when they apply (https)."
          value={privacy}
          onChange={(event) => setPrivacy(event.currentTarget.value)}
          disabled={!isAdmin}
          maxLength={2000}
        />
        <SettingSwitch label="Show salaries" checked={showSalary} onChange={setShowSalary} />
        <Group>
          <Text size="sm">Logo</Text>
          {board.logoUrl ? <Image src={board.logoUrl} alt="Current logo" h={40} w="auto" fit="contain" /> : <Text size="sm" c="dimmed">None</Text>}
          {isAdmin && (
            <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp">
              {(props) => (
                <Button variant="default" size="xs" loading={uploading.busy} {...props}>
                  Upload logo
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        <ErrorMessage error={uploading.error} title="Could not upload the logo" />
        <Text size="sm">
          CAPTCHA on the apply form:{' '}
          <Badge variant="light" color={board.captchaEnabled ? 'green' : 'gray'}>
            {board.captchaEnabled ? 'On' : 'Off'}
          </Badge>{' '}
          <Text span size="xs" c="dimmed">
            (set by the server's operator)
          </Text>
        </Text>
        <SettingsSave saving={saving} saved={saved} submitLabel="Save careers page" onSubmit={save} />
      </Stack>
    </Card>
  );
}

export function CareersSettings() {
  const board = useLoad(() => call(api.GET('/settings/company/board')), []);
  return (
    <LoadState state={board} label="Loading careers page settings">
      {(data) => <BoardForm board={data} onSaved={board.reload} />}
    </LoadState>
  );
}

/** The careers page's public link of an ACTIVE listing, once the board has an address. */
export function useCareersSlug(): string | null {
  const board = useLoad(() => call(api.GET('/settings/company/board')), []);
  return board.data?.enabled ? (board.data.slug ?? null) : null;
}

/** The status cell's addition in the listings page: an ACTIVE listing's public link. */
export function CareersLink({ slug, id, status }: { slug: string | null; id: string; status: string }) {
  if (!slug || status !== 'ACTIVE') return null;
  const href = `/careers/${slug}/jobs/${id}`;
  return (
    <Anchor href={href} target="_blank" rel="noopener" size="xs" display="block" title={`${window.location.origin}${href}`}>
      Public link
    </Anchor>
  );
}
