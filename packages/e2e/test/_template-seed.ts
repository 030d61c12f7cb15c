import type { SeedFile, SeedTemplate } from '@parley/emulator';

/** The live key of {@link templateSeed}'s application. */
export const LIVE_KEY = 'prl_live_E2eSeededTemplates00000000000001';
/** The simulated connection that carries {@link TEMPLATE_COUNT} templates of its own. */
export const CONNECTION_ID = '6a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
/** More than one page of the largest size (100). */
export const TEMPLATE_COUNT = 150;

/** `template_1` … `template_150`, in French but every tenth in English with one variable. */
export const SEEDED_TEMPLATES: SeedTemplate[] = Array.from({ length: TEMPLATE_COUNT }, (_, index) => {
  const number = index + 1;
  return number % 10 === 0
    ? { name: `template_${number}`, language: 'en', body: `Hello {{1}}, this is template ${number}.` }
    : { name: `template_${number}`, language: 'fr', body: `Bonjour, modèle ${number}.` };
});

/** A live application whose simulated connection has {@link SEEDED_TEMPLATES}. */
export const templateSeed: SeedFile = {
  workspaces: [
    {
      name: 'Templates e2e',
      applications: [
        {
          name: 'Many templates',
          environment: 'live',
          keys: [{ key: LIVE_KEY }],
          connections: [
            {
              id: CONNECTION_ID,
              phone_number: '+15550109999',
              name: 'Catalogue',
              templates: SEEDED_TEMPLATES,
            },
          ],
        },
      ],
    },
  ],
};
