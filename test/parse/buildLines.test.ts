import { describe, expect, it } from 'vitest';
import { buildLines, type PlacedText } from '../../lambdas/parse/buildLines.js';

/** A run of 10 pt text whose width is 5 pt per character (wide enough to reason about gaps). */
const run = (text: string, x: number, y: number, fontSize = 10): PlacedText => ({
  text,
  x,
  y,
  width: text.length * fontSize * 0.5,
  fontSize,
});

describe('buildLines', () => {
  it('orders lines top to bottom and runs left to right, whatever order they come in', () => {
    // Prepare: three lines, given bottom-up and right-to-left
    const runs = [
      run('world', 130, 300),
      run('third line', 100, 340),
      run('Hello', 100, 300),
      run('second', 100, 320),
    ];

    // Act
    const lines = buildLines(runs);

    // Assess
    expect(lines).toEqual(['Hello world', 'second', 'third line']);
  });

  it('keeps runs whose baselines differ by less than half a font height on one line', () => {
    // Prepare: a table row whose cells sit 2 pt apart, and a superscript 4 pt above its baseline
    const runs = [
      run('Amount', 100, 300),
      run('12.00', 300, 302),
      run('E = mc', 100, 400),
      run('2', 130, 396, 6),
    ];

    // Act
    const lines = buildLines(runs);

    // Assess
    expect(lines).toEqual(['Amount  12.00', 'E = mc2']);
  });

  it('splits runs a full line apart even with large fonts', () => {
    // Prepare: a 24 pt heading and the 10 pt line 14 pt below it
    const runs = [run('Heading', 100, 100, 24), run('Body text', 100, 114)];

    // Act
    const lines = buildLines(runs);

    // Assess
    expect(lines).toEqual(['Heading', 'Body text']);
  });

  it('joins with nothing inside a word, one space between words, two spaces between columns', () => {
    // Prepare: "Tot"+"al:" touch; "due" after a word space (3 pt); "99.00" after a column gap (40 pt)
    const runs = [run('Tot', 100, 200), run('al:', 115, 200), run('due', 133, 200), run('99.00', 188, 200)];

    // Act
    const [line] = buildLines(runs);

    // Assess: a reader can split cells on runs of two or more spaces
    expect(line).toBe('Total: due  99.00');
    expect(line?.split(/ {2,}/)).toEqual(['Total: due', '99.00']);
  });

  it('drops blank runs and duplicate runs drawn over each other (fake bold)', () => {
    // Prepare
    const runs = [run('Bold', 100, 200), run('Bold', 100.3, 200), run('   ', 120, 200), run('', 100, 250)];

    // Act
    const lines = buildLines(runs);

    // Assess
    expect(lines).toEqual(['Bold']);
  });

  it('does not double a space that a run already carries', () => {
    // Prepare: pdf.js often keeps the trailing space of a word inside the run
    const runs = [run('Invoice ', 100, 200), run('number', 143, 200)];

    // Act
    const lines = buildLines(runs);

    // Assess
    expect(lines).toEqual(['Invoice number']);
  });

  it('returns no lines for a page without text', () => {
    // Prepare / Act
    const lines = buildLines([]);

    // Assess
    expect(lines).toEqual([]);
  });
});
