import bg from './bg.json' with { type: 'json' };
import ca from './ca.json' with { type: 'json' };
import cs from './cs.json' with { type: 'json' };
import da from './da.json' with { type: 'json' };
import de from './de.json' with { type: 'json' };
import el from './el.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import et from './et.json' with { type: 'json' };
import fi from './fi.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import hr from './hr.json' with { type: 'json' };
import hu from './hu.json' with { type: 'json' };
import it from './it.json' with { type: 'json' };
import lt from './lt.json' with { type: 'json' };
import lv from './lv.json' with { type: 'json' };
import nb from './nb.json' with { type: 'json' };
import nl from './nl.json' with { type: 'json' };
import pl from './pl.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };
import ro from './ro.json' with { type: 'json' };
import ru from './ru.json' with { type: 'json' };
import { type Vocabulary, VocabularySchema } from './schema.js';
import sk from './sk.json' with { type: 'json' };
import sl from './sl.json' with { type: 'json' };
import sr from './sr.json' with { type: 'json' };
import sv from './sv.json' with { type: 'json' };
import tr from './tr.json' with { type: 'json' };
import uk from './uk.json' with { type: 'json' };

/**
 * Every language Docket reads. Adding one: write `<code>.json` beside this file (the schema in
 * `schema.ts` says what it holds) and list it here; a test fails when a file is not listed.
 * Each file is checked against the schema when the module loads, so a broken vocabulary stops
 * the stage at start, not in the middle of a document.
 */
export const VOCABULARIES: readonly Vocabulary[] = [
  en,
  de,
  fr,
  nl,
  es,
  it,
  pl,
  pt,
  sv,
  da,
  nb,
  cs,
  hr,
  sl,
  sk,
  lt,
  fi,
  et,
  hu,
  ro,
  el,
  lv,
  ca,
  bg,
  tr,
  sr,
  uk,
  ru,
].map((v) => {
  const parsed = VocabularySchema.safeParse(v);
  if (!parsed.success) {
    throw new Error(
      `Vocabulary "${(v as { code?: string }).code ?? '?'}" does not match the schema: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
});
