/**
 * `fill_form`: fills fields, submits, and waits for the resulting page (if the submit navigates).
 */
import type { Locator, Page } from 'playwright-core';
import type { EngineRequest } from '../request';

/** What a form fill needs from the scrape it runs in. */
export interface FormRun {
  /** Milliseconds left before the scrape's deadline (at least 1). */
  remaining(): number;
  /** The scrape's best-effort wait for late requests after a load. */
  settle(): Promise<void>;
}

type FillForm = NonNullable<EngineRequest['fill_form']>;

function truthy(value: string | number | boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return !['', '0', 'false', 'off', 'no'].includes(value.trim().toLowerCase());
}

/**
 * Fills each field (text inputs and textareas: fill; selects: selectOption; checkboxes and
 * radios: checked when the value is truthy), then submits: clicks `submit` when given, else
 * submits the `selector` form when given, else does not submit. Waits for the resulting
 * navigation (if any) to load. Returns the new main response, if there was a navigation.
 */
export async function fillForm(page: Page, form: FillForm, run: FormRun) {
  const scope: Page | Locator = form.selector ? page.locator(form.selector).first() : page;
  for (const [css, value] of Object.entries(form.fields)) {
    const field = scope.locator(css).first();
    await field.waitFor({ state: 'attached', timeout: run.remaining() });
    const kind = await field.evaluate((el) => ({
      tag: el.tagName.toLowerCase(),
      type: ((el as HTMLInputElement).type ?? '').toLowerCase(),
    }));
    if (kind.tag === 'select') await field.selectOption(String(value), { timeout: run.remaining() });
    else if (kind.type === 'checkbox' || kind.type === 'radio') await field.setChecked(truthy(value), { timeout: run.remaining() });
    else await field.fill(String(value), { timeout: run.remaining() });
  }
  if (!form.submit && !form.selector) return null;

  const navigation = page
    .waitForEvent('request', { predicate: (r) => r.isNavigationRequest() && r.frame() === page.mainFrame(), timeout: run.remaining() })
    .catch(() => null);
  // The current document has loaded already, so the next `load` event is the new document's.
  const loaded = page.waitForEvent('load', { timeout: run.remaining() });
  loaded.catch(() => undefined);
  if (form.submit) {
    await scope.locator(form.submit).first().click({ timeout: run.remaining() });
  } else {
    await page
      .locator(form.selector!)
      .first()
      .evaluate((el) => {
        const f = el as HTMLFormElement;
        if (typeof f.requestSubmit === 'function') f.requestSubmit();
        else f.submit();
      });
  }
  // A submit either starts a navigation right away or is handled by script (no navigation).
  const grace = new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.min(1000, run.remaining())).unref());
  const navRequest = await Promise.race([navigation, grace]);
  if (!navRequest) {
    await run.settle();
    return null;
  }
  const response = await navRequest.response().catch(() => null);
  await loaded;
  await run.settle();
  return response;
}
