/**
 * A person picked by name or e-mail: what is typed is kept as it is (an e-mail or a `usr-` id works
 * everywhere a person is asked for), and a name's first letters list the people whose name starts so
 * (`GET /api/admin/v1/accounts?name=`, administrators only); picking one puts their e-mail in the box.
 * With `several`, the box holds a comma-separated list and the last entry is the one looked up.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, enc, get } from './api';
import type { Account } from './model';

/** Letters typed before people are looked up, and how long typing pauses first. */
const MIN_LETTERS = 2;
const PAUSE_MS = 250;
const SHOWN = 8;
const USR_ID = /^usr-[0-9a-f-]{36}$/;

/** The entry a lookup is for: the whole text, or its last comma-separated entry. */
const lastEntry = (text: string, several: boolean) =>
  (several ? (text.split(',').at(-1) ?? '') : text).trim();

/** The text with its entry replaced by `email`. */
const withPicked = (text: string, email: string, several: boolean) => {
  if (!several) return email;
  const kept = text
    .split(',')
    .slice(0, -1)
    .map((s) => s.trim());
  return [...kept, email].join(', ');
};

/** Whether `entry` is looked up by name: no e-mail, no id, long enough. */
const isName = (entry: string) =>
  entry.length >= MIN_LETTERS && !entry.includes('@') && !entry.startsWith('usr-');

export interface PersonPickerProps {
  id: string;
  label: string;
  /** Controlled: the text and its change. Uncontrolled (a form read by FormData) without them. */
  value?: string;
  onChange?: (text: string) => void;
  initial?: string;
  name?: string;
  required?: boolean;
  several?: boolean;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  /** How people are looked up (default: as the signed-in caller). */
  fetcher?: <T>(path: string) => Promise<T>;
}

export function PersonPicker(props: PersonPickerProps) {
  const [own, setOwn] = useState(props.initial ?? '');
  const text = props.value ?? own;
  const setText = (next: string) => (props.onChange ? props.onChange(next) : setOwn(next));
  const several = props.several === true;
  const fetcher = props.fetcher ?? get;
  const [found, setFound] = useState<Account[]>([]);
  const [why, setWhy] = useState('');
  const [asked, setAsked] = useState('');

  // What was typed, else what the box holds (an id from a saved form is named too).
  const entry = lastEntry(asked || text, several);
  useEffect(() => {
    let current = true;
    if (USR_ID.test(entry)) {
      setFound([]);
      fetcher<Account>(`/api/admin/v1/accounts/${enc(entry)}`).then(
        (a) => current && setWhy(`${a.name_first} ${a.name_last} <${a.email}>`),
        () => current && setWhy(''),
      );
      return () => {
        current = false;
      };
    }
    if (!isName(entry)) {
      setFound([]);
      setWhy('');
      return;
    }
    const timer = setTimeout(() => {
      fetcher<Account[]>(
        `/api/admin/v1/accounts?name=${enc(entry)}&kind=person&active=true&pageSize=${SHOWN}&order=newest`,
      ).then(
        (people) => {
          if (!current) return;
          setFound(people);
          setWhy(people.length ? '' : `Nobody’s name starts with “${entry}”.`);
        },
        (err: unknown) => {
          if (!current) return;
          setFound([]);
          setWhy(
            err instanceof ApiError && err.status === 403
              ? 'Only administrators can look people up by name: type an e-mail or a usr- id.'
              : 'People could not be looked up now: type an e-mail or a usr- id.',
          );
        },
      );
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [entry]);

  const listId = `${props.id}-people`;
  const pick = (person: Account) => {
    setText(withPicked(text, person.email, several));
    setAsked('');
  };
  return (
    <div class="person-picker">
      <input
        id={props.id}
        name={props.name}
        value={text}
        required={props.required}
        placeholder={props.placeholder ?? 'Name, e-mail or usr- id'}
        autoComplete="off"
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={
          [props.describedBy, found.length || why ? listId : ''].filter(Boolean).join(' ') || undefined
        }
        onInput={(e) => {
          const next = (e.target as HTMLInputElement).value;
          setText(next);
          setAsked(next);
        }}
      />
      {found.length ? (
        <ul id={listId} class="people-found" aria-label={`People for ${props.label}`}>
          {found.map((person) => (
            <li key={person._id_sys}>
              <button type="button" class="secondary" onClick={() => pick(person)}>
                {person.name_first} {person.name_last} <span class="muted">&lt;{person.email}&gt;</span>
              </button>
            </li>
          ))}
        </ul>
      ) : why ? (
        <small id={listId} class="hint" aria-live="polite">
          {why}
        </small>
      ) : null}
    </div>
  );
}
