import type { CatalogField } from '../fieldCatalog.js';
import type { FieldIssue, ReviewDetail, TextSource } from './api.js';
import { h } from './dom.js';
import { confidenceLevel } from './format.js';

interface Row {
  name: string;
  required: boolean;
  original: unknown;
  element: HTMLElement;
  error: HTMLElement;
  read: () => { value: unknown } | { invalid: string };
}

/** The field list of a review: edit values, see confidence and source, collect corrections. */
export interface FieldsPanel {
  element: HTMLElement;
  /**
   * Changed fields (a cleared optional field is `null`) or the number of invalid entries;
   * `missingType` when the document's type must be chosen first.
   */
  corrections: () => { corrections: Record<string, unknown>; invalid: number; missingType?: boolean };
  /** The type the reviewer chose, when it is not the extraction's (an unclassified document). */
  docType: () => 'contract' | 'invoice' | undefined;
  /** Shows a 422's issues next to their fields. */
  showIssues: (issues: readonly FieldIssue[]) => void;
  /** Turns editing off (the review was decided). */
  disable: () => void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const editorFor = (name: string, kind: CatalogField, value: unknown, onInput: () => void) => {
  const common = { name, 'aria-label': name, oninput: onInput, onchange: onInput };
  switch (kind.kind) {
    case 'boolean': {
      const select = h(
        'select',
        common,
        h('option', { value: '' }, '—'),
        h('option', { value: 'true' }, 'yes'),
        h('option', { value: 'false' }, 'no'),
      );
      select.value = value === undefined ? '' : String(value);
      return { control: select, read: () => (select.value === '' ? undefined : select.value === 'true') };
    }
    case 'choice': {
      const select = h(
        'select',
        common,
        h('option', { value: '' }, '—'),
        ...(kind.options ?? []).map((option) => h('option', { value: option }, option.replace(/_/g, ' '))),
      );
      select.value = value === undefined ? '' : String(value);
      return { control: select, read: () => (select.value === '' ? undefined : select.value) };
    }
    case 'number': {
      const input = h('input', {
        ...common,
        type: 'text',
        inputmode: 'numeric',
        value: value === undefined ? '' : String(value),
      });
      return {
        control: input,
        read: () =>
          input.value.trim() === ''
            ? undefined
            : /^-?\d+$/.test(input.value.trim())
              ? Number(input.value.trim())
              : input.value,
      };
    }
    case 'parts': {
      const parts = kind.parts ?? [];
      const current = (value ?? {}) as Record<string, unknown>;
      const inputs = parts.map((part) =>
        h('input', {
          ...common,
          name: `${name}.${part}`,
          'aria-label': `${name} ${part}`,
          placeholder: part,
          type: 'text',
          value: current[part] === undefined ? '' : String(current[part]),
        }),
      );
      return {
        control: h('div', { class: 'parts' }, ...inputs),
        read: () =>
          inputs.every((i) => i.value.trim() === '')
            ? undefined
            : Object.fromEntries(parts.map((p, i) => [p, inputs[i]?.value.trim() ?? ''])),
      };
    }
    case 'json': {
      const area = h('textarea', { ...common, rows: 3, spellcheck: 'false' });
      area.value = value === undefined ? '' : JSON.stringify(value, null, 1);
      return {
        control: area,
        read: () => {
          if (area.value.trim() === '') return undefined;
          return JSON.parse(area.value) as unknown;
        },
      };
    }
    default: {
      const text = value === undefined ? '' : String(value);
      // Long values wrap in a textarea rather than scroll sideways in a one-line input.
      const control =
        text.length > 48
          ? h('textarea', { ...common, rows: 2, spellcheck: 'false' })
          : h('input', { ...common, type: 'text', value: text });
      if (control instanceof HTMLTextAreaElement) control.value = text;
      return { control, read: () => (control.value.trim() === '' ? undefined : control.value) };
    }
  }
};

/**
 * Builds the field list: every required field (a missing one empty and marked), every extracted
 * optional one, and a picker to add another. Each row shows its confidence as a colour and its
 * source line; clicking the source (or focusing the field) asks `locate` to show it on the PDF.
 */
export const fieldsPanel = (
  detail: ReviewDetail,
  locate: (source: TextSource, value?: unknown) => void,
): FieldsPanel => {
  if (detail.docType !== 'unclassified')
    return typedFieldsPanel(detail, detail.docType ?? 'contract', locate);
  // Not recognised as either: the reviewer says what it is, then fills in that type's fields.
  const choice = h(
    'select',
    { class: 'doc-type-choice', 'aria-label': 'document type' },
    h('option', { value: '' }, 'What is this document? Choose…'),
    h('option', { value: 'invoice' }, 'an invoice'),
    h('option', { value: 'contract' }, 'a contract'),
  );
  const slot = h('div', { class: 'typed-fields' });
  let typed: FieldsPanel | undefined;
  choice.addEventListener('change', () => {
    const type = choice.value === 'invoice' || choice.value === 'contract' ? choice.value : undefined;
    typed = type ? typedFieldsPanel(detail, type, locate) : undefined;
    slot.replaceChildren(...(typed ? [typed.element] : []));
  });
  return {
    element: h('div', { class: 'fields-panel' }, h('label', { class: 'doc-type-label' }, choice), slot),
    corrections: () => (typed ? typed.corrections() : { corrections: {}, invalid: 1, missingType: true }),
    docType: () => typed?.docType(),
    showIssues: (issues) => typed?.showIssues(issues),
    disable: () => {
      choice.disabled = true;
      typed?.disable();
    },
  };
};

/** The field list of a document of a known type. */
const typedFieldsPanel = (
  detail: ReviewDetail,
  docType: 'contract' | 'invoice',
  locate: (source: TextSource, value?: unknown) => void,
): FieldsPanel => {
  const catalog = new Map(__FIELD_CATALOG__[docType].map((f) => [f.name, f]));
  const required = new Set([...catalog.values()].filter((f) => f.required).map((f) => f.name));
  const rows = new Map<string, Row>();
  const list = h('div', { class: 'fields' });

  const addRow = (name: string) => {
    const spec = catalog.get(name);
    if (!spec || rows.has(name)) return;
    const field = detail.fields[name];
    const rejected = detail.rejected.filter((r) => r.field === name);
    const level = field?.corrected ? 'corrected' : field ? confidenceLevel(field.confidence) : 'missing';
    const error = h('div', { class: 'field-error', role: 'status' });
    let row: Row;
    const onInput = () => {
      const result = row.read();
      const changed = 'invalid' in result || !same(result.value, row.original);
      row.element.classList.toggle('edited', changed);
      error.textContent = 'invalid' in result ? result.invalid : '';
    };
    const editor = editorFor(name, spec, field?.value, onInput);
    const source = field?.source ?? rejected[0]?.source;
    const element = h(
      'div',
      { class: `field conf-${level}`, 'data-field': name },
      h(
        'div',
        { class: 'field-head' },
        h(
          'label',
          { class: 'field-name' },
          name,
          required.has(name) ? h('span', { class: 'req', title: 'required' }, ' *') : null,
        ),
        h(
          'span',
          { class: 'badge', title: 'extraction confidence' },
          field ? (field.corrected ? 'corrected' : `${Math.round(field.confidence * 100)}%`) : 'missing',
        ),
        source && 'page' in source
          ? h(
              'button',
              {
                type: 'button',
                class: 'source',
                title: source.text,
                'aria-label': `p${source.page} · l${source.line}: show where ${name} was read`,
                onclick: () => locate(source, field?.value),
              },
              `p${source.page} · l${source.line}`,
            )
          : source
            ? h('span', { class: 'source', title: `${source.attachment}: ${source.path}` }, 'e-invoice data')
            : null,
      ),
      editor.control,
      ...rejected.map((r) => h('div', { class: 'rejected' }, `read "${r.raw}" but ${r.reason}`)),
      error,
    );
    // Focusing a field (Tab) or clicking anywhere on it shows where its value is on the page.
    if (source && 'page' in source) {
      element.addEventListener('focusin', () => locate(source, field?.value));
      element.addEventListener('click', () => locate(source, field?.value));
    }
    row = {
      name,
      required: required.has(name),
      original: field?.value,
      element,
      error,
      read: () => {
        let value: unknown;
        try {
          value = editor.read();
        } catch {
          return { invalid: 'not valid JSON' };
        }
        if (value === undefined) return required.has(name) ? { invalid: 'required' } : { value };
        // Values are checked by the review API (the field schemas); a 422 marks the field.
        return { value };
      },
    };
    rows.set(name, row);
    list.append(element);
  };

  const names = [...catalog.keys()];
  const present = names.filter(
    (name) =>
      required.has(name) ||
      detail.fields[name] !== undefined ||
      detail.rejected.some((r) => r.field === name),
  );
  for (const name of present) addRow(name);
  const picker = h('select', { class: 'add-field', 'aria-label': 'add a field' });
  const refreshPicker = () => {
    const absent = names.filter((n) => !rows.has(n));
    picker.replaceChildren(
      h('option', { value: '' }, absent.length ? '+ add a field…' : 'all fields shown'),
      ...absent.map((n) => h('option', { value: n }, n)),
    );
    picker.disabled = absent.length === 0;
  };
  picker.addEventListener('change', () => {
    if (!picker.value) return;
    addRow(picker.value);
    rows.get(picker.value)?.element.querySelector<HTMLElement>('input, textarea, select')?.focus();
    refreshPicker();
  });
  refreshPicker();

  return {
    element: h('div', { class: 'fields-panel' }, list, picker),
    docType: () => (detail.docType === docType ? undefined : docType),
    corrections: () => {
      const corrections: Record<string, unknown> = {};
      let invalid = 0;
      for (const row of rows.values()) {
        const result = row.read();
        if ('invalid' in result) {
          // An untouched missing field is for the server to judge (approve says what is missing).
          if (
            row.original === undefined &&
            result.invalid === 'required' &&
            !row.element.classList.contains('edited')
          )
            continue;
          invalid += 1;
          row.error.textContent = result.invalid;
          continue;
        }
        if (same(result.value, row.original)) continue;
        corrections[row.name] = result.value === undefined ? null : result.value;
      }
      return { corrections, invalid };
    },
    showIssues: (issues) => {
      for (const issue of issues) {
        const name = issue.field.split('.')[0] ?? '';
        if (!rows.has(name)) addRow(name);
        const row = rows.get(name);
        if (row) row.error.textContent = issue.message;
      }
      refreshPicker();
    },
    disable: () => {
      for (const control of list.querySelectorAll<HTMLInputElement>('input, textarea, select'))
        control.disabled = true;
      picker.disabled = true;
    },
  };
};
