// The translations tab: a human translation of every translated text into one language at a time.
import { Stack, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { api, ApiError, call, useLoad } from '../../api';
import { FieldGroup, FormActions, Notice, useAction } from '../../components';
import { languageLabel } from '../../languages';
import { ErrorMessage, Loading } from '../../ui';
import { bodyOfDraft, draftOf, fieldErrors, listProblems, SINGLE_TEXTS, type Draft, type SingleKey } from './draft';
import type { Listing } from './form';
import { LanguagePicker } from './LanguagePicker';
import { TranslatedField } from './TranslatedField';

/** At a list (benefits, skills): why it is not saved yet. */
function ListProblem({ problem }: { problem: string | undefined }) {
  return problem ? (
    <Text size="sm" c="red.9" data-testid="list-problem">
      {problem}
    </Text>
  ) : null;
}

export function Translations({ listing }: { listing: Listing }) {
  const source = listing.position.sourceLanguage;
  const [language, setLanguage] = useState<string>();
  const [draft, setDraft] = useState<Draft>();
  const [saved, setSaved] = useState<string>();
  // Lists filled in part when a save left them out: typed again into the reloaded draft.
  const [carried, setCarried] = useState<Partial<Pick<Draft, 'benefits' | 'skills'>>>();
  const [round, setRound] = useState(0);
  const saving = useAction();
  const shown = useLoad(
    () =>
      language
        ? call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, headers: { 'accept-language': language } }))
        : Promise.resolve(undefined),
    [language, listing.id, listing.updatedAt],
  );
  // Each answer fills the form again (after a save too). From what useLoad kept: a late answer for
  // the language switched away from never fills the form.
  const [draftOfData, setDraftOfData] = useState(shown.data);
  if (draftOfData !== shown.data) {
    setDraftOfData(shown.data);
    if (shown.data) setDraft({ ...draftOf(shown.data), ...carried });
    setCarried(undefined);
  }
  const problems = draft ? listProblems(draft) : {};
  const refused = saving.error instanceof ApiError ? fieldErrors(saving.error.details) : {};
  const body = draft ? bodyOfDraft(draft) : {};
  const save = () =>
    void saving.run(async () => {
      setSaved(undefined);
      if (!language || !draft) return;
      await call(api.PUT('/public/v1/job-listings/{id}/translations/{lang}', { params: { path: { id: listing.id, lang: language } }, body }));
      const left = (['benefits', 'skills'] as const).filter((list) => problems[list]);
      setCarried(Object.fromEntries(left.map((list) => [list, draft[list]])));
      setSaved(left.length === 0 ? 'Translation saved.' : `Translation saved, except the ${left.join(' and ')}: translate every one to save them.`);
      setRound((n) => n + 1);
      shown.reload();
    });
  const texts = shown.data;
  const choose = useCallback((next: string) => {
    setSaved(undefined);
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
            return text ? <TranslatedField key={key} label={label} language={language} text={text} value={draft.single[key] ?? ''} onChange={setSingle(key)} long={key !== 'position' && key !== 'fieldOfStudy'} error={refused[key]} /> : null;
          })}
          {texts.benefits.length > 0 && (
            <FieldGroup legend="Benefits">
              {texts.benefits.map((benefit, index) => (
                <TranslatedField key={index} label={`Benefit ${index + 1}`} language={language} text={benefit} value={draft.benefits[index] ?? ''} onChange={setAt('benefits', index)} error={refused[`benefits.${index}`]} />
              ))}
              <ListProblem problem={problems.benefits} />
            </FieldGroup>
          )}
          {texts.skills.length > 0 && (
            <FieldGroup legend="Skills">
              {texts.skills.map((skill, index) => (
                <TranslatedField key={index} label={`Skill ${index + 1}`} language={language} text={skill.value} value={draft.skills[index] ?? ''} onChange={setAt('skills', index)} error={refused[`skills.${index}`]} />
              ))}
              <ListProblem problem={problems.skills} />
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
      <ErrorMessage error={saving.error} title="Could not save the translation" />
      <Notice>{saved}</Notice>
      <FormActions submitLabel="Save translation" onSubmit={save} busy={saving.busy} disabled={!language || !draft || Object.keys(body).length === 0} />
    </Stack>
  );
}
