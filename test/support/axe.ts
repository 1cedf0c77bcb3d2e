import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

interface Axe {
  run(context: Document, options: object): Promise<{ violations: unknown[] }>;
  getRules(tags: string[]): { ruleId: string }[];
}

let axeSource: Promise<string> | undefined;

/**
 * axe-core's violations on the page as it is now (with `experimental`, its experimental rules too,
 * e.g. label-content-name-mismatch: a control's name contains its visible text).
 */
export async function axeViolations(page: Page, { experimental = false }: { experimental?: boolean } = {}): Promise<AxeViolation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  return (await page.evaluate(async (withExperimental) => {
    const axe = (window as unknown as { axe: Axe }).axe;
    const rules = withExperimental ? Object.fromEntries(axe.getRules(['experimental']).map((rule) => [rule.ruleId, { enabled: true }])) : {};
    return (await axe.run(document, { resultTypes: ['violations'], rules })).violations;
  }, experimental)) as AxeViolation[];
}

/** The violations a page must not have: impact serious or critical. */
export const seriousOrCritical = (violations: AxeViolation[]) => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
