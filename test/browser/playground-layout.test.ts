/**
 * The playground's layout in Chromium at the window widths people use (issue 31): the page
 * never scrolls sideways, no panel lies over another and the thematic fieldset stays in the
 * window, on opening and with every thematic control set. The palette preview once took SVG's
 * default 300 px a swatch and pushed its fieldset over the envelope, and no test looked.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { legendPreviewPath } from '../../src/playground/thematic.js';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { launchChromium, openPage, renderShown } from './chromium.ts';

const WIDTHS = [1024, 1400, 1920];

/** CI keeps what lands here (git-ignored): the page as a failed test left it. */
const ARTEFACTS = fileURLToPath(new URL('./artefacts/', import.meta.url));

/** What the thematic section can be set to; '' leaves a picker at its default. */
interface ThematicChoice {
  styleBy: string;
  classify: string;
  classes: string;
  palette: string;
  reversePalette: boolean;
  legendPosition: string;
  labelField: string;
}

/**
 * Each field kind of the sample countries under each method, with palettes of few and many
 * colours, the legend in each corner and labels by each kind of field. NAME coloured by its
 * categories (a class per country up to the cap) makes the most swatches: the worst case.
 */
const CHOICES: ThematicChoice[] = [
  { styleBy: 'AREA_KM2', classify: 'quantile', classes: '12', palette: 'Viridis', reversePalette: true, legendPosition: 'topleft', labelField: 'NAME_NL' },
  { styleBy: 'AREA_KM2', classify: 'equal', classes: '2', palette: 'Blues', reversePalette: false, legendPosition: 'topright', labelField: 'AREA_KM2' },
  { styleBy: 'AREA_KM2', classify: 'jenks', classes: '7', palette: 'RdYlGn', reversePalette: true, legendPosition: 'bottomright', labelField: 'SUBREGION' },
  { styleBy: 'NAME', classify: '', classes: '5', palette: '', reversePalette: false, legendPosition: 'bottomleft', labelField: 'NAME' },
  { styleBy: 'SUBREGION', classify: 'categories', classes: '5', palette: 'Paired', reversePalette: true, legendPosition: 'topleft', labelField: 'NAME_NL' },
  { styleBy: 'LANDLOCKED', classify: 'categories', classes: '5', palette: 'Set3', reversePalette: false, legendPosition: 'bottomright', labelField: 'LANDLOCKED' },
];

/**
 * What is wrong with the page's layout as shown, in words (empty when nothing is): a page
 * wider than its window, panels (the form's fieldsets, the result's parts) lying over each
 * other or outside the window, anything in the thematic fieldset outside it.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth > clientWidth) problems.push(`the page is ${scrollWidth} px wide in a window of ${clientWidth} px`);

    const nameOf = (found: Element) => found.id || found.querySelector('legend, h3')?.textContent || found.tagName;
    // The sticky Render bar is left out: it floats over the form's end by design.
    const panels = Array.from(document.querySelectorAll('#request-form > fieldset, #images, #legend-panel:not([hidden]), .panels > section, #result > section'));
    const boxes = panels.map((panel) => ({ name: nameOf(panel), box: panel.getBoundingClientRect() }));
    for (const [index, a] of boxes.entries()) {
      for (const b of boxes.slice(index + 1)) {
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 0 && down > 0) problems.push(`'${a.name}' overlaps '${b.name}' by ${Math.round(across)}×${Math.round(down)} px`);
      }
    }

    for (const { name, box } of boxes) {
      if (box.left < 0 || box.right > clientWidth) problems.push(`'${name}' spans ${Math.round(box.left)}–${Math.round(box.right)} px in a window of ${clientWidth} px`);
    }
    const thematic = document.querySelector('#thematic-options')!.getBoundingClientRect();
    for (const part of Array.from(document.querySelectorAll('#thematic-options *'))) {
      const box = part.getBoundingClientRect();
      if (box.width > 0 && (box.left < thematic.left || box.right > thematic.right)) {
        problems.push(`#${part.id || part.closest('[id]')?.id} ${part.tagName} spans ${Math.round(box.left)}–${Math.round(box.right)} px, outside its fieldset's ${Math.round(thematic.left)}–${Math.round(thematic.right)} px`);
      }
    }
    return problems;
  });
}

describe("the playground's layout", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // A configured key, given to the page in its address.
    server = await startServer();
    await mkdir(ARTEFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Sets a control of the form as a user would leave it, and checks that it took the value (a select has no option for a misspelt one). */
  async function choose(id: string, value: string | boolean) {
    const taken = await page.$eval(
      `#${id}`,
      (control, wanted) => {
        const input = control as HTMLInputElement;
        if (typeof wanted === 'boolean') input.checked = wanted;
        else input.value = wanted;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return typeof wanted === 'boolean' ? input.checked : input.value;
      },
      value,
    );
    expect(taken, `#${id}`).toBe(value);
  }

  /** Waits until the palette preview of the choice last made is shown, or its failure is (a newer choice drops an older one's at once). */
  async function previewSettled() {
    await page.waitForFunction(() => {
      const preview = document.querySelector<HTMLElement>('#palette-preview');
      const styleBy = document.querySelector<HTMLSelectElement>('#style-by');
      return styleBy?.value === '' || preview?.dataset.legend !== undefined || preview?.querySelector('.hint') !== null;
    });
  }

  /** The palette preview of `choice`, and not its failure. */
  async function previewShown(choice: ThematicChoice, categories: boolean) {
    await previewSettled();
    const shown = await page.$eval('#palette-preview', (preview) => (preview as HTMLElement).dataset.legend ?? preview.textContent);
    expect(shown).toBe(legendPreviewPath({ file: 'countries', ...choice, classes: categories ? '' : choice.classes }));
  }

  /** The form set to `choice`, its preview and its picture shown. */
  async function drawn(choice: ThematicChoice) {
    // The method by default suits every field, so that no step between two choices asks for classes the server refuses (jenks on text).
    await choose('classify', '');
    await choose('style-by', choice.styleBy);
    await choose('classify', choice.classify);
    await choose('palette', choice.palette);
    await choose('reverse-palette', choice.reversePalette);
    const categories = await page.$eval('#classes', (input) => (input as HTMLInputElement).disabled);
    if (!categories) await choose('classes', choice.classes);
    await choose('legend-switch', true);
    await choose('legend-position', choice.legendPosition);
    await choose('labels-switch', true);
    await choose('label-field', choice.labelField);
    await previewShown(choice, categories);
    await page.click('#render');
    await renderShown(page);
    await page.waitForSelector('#legend-panel:not([hidden])');
  }

  /** A failed test leaves the page as it was, for a reader to see what the words describe. */
  function screenshotOnFailure(name: string) {
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTEFACTS, `playground-layout-${name}.png`), fullPage: true });
    });
  }

  for (const width of WIDTHS) {
    describe(`in a ${width} px window`, () => {
      beforeAll(async () => {
        await page.setViewport({ width, height: 1000 });
        await page.goto(server.url(`/?key=${TEST_KEY}`));
        await page.waitForSelector('#file option[value="countries"]');
        await renderShown(page);
        await previewSettled();
        // The palettes come from the server's API description, after the page has opened.
        await page.waitForSelector('#palette option[value="Viridis"]');
      });

      it('on opening (coloured by a field, with its palette preview): no sideways scroll, no panel over another, the thematic fieldset in the window', async () => {
        screenshotOnFailure(`${width}-opening`);
        // The first look colours the sample countries by region: the case reported.
        expect(await page.$eval('#style-by', (select) => (select as HTMLSelectElement).value)).toBe('REGION');
        expect(await page.$$('#palette-preview svg')).not.toHaveLength(0);
        expect(await layoutProblems(page)).toEqual([]);
        expect(problems).toEqual([]);
      });

      for (const choice of CHOICES) {
        const method = choice.classify || 'its default method';
        it(`coloured by ${choice.styleBy} by ${method}, palette ${choice.palette || 'by default'}, legend and labels: the same`, async () => {
          screenshotOnFailure(`${width}-${choice.styleBy}-${method.replaceAll(' ', '-')}`);
          await drawn(choice);
          expect(await layoutProblems(page)).toEqual([]);
          expect(problems).toEqual([]);
        });
      }
    });
  }
});
