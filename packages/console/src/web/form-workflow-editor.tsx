/**
 * A form's `workflow` as inputs: its due days and, per phase (approval, sign, execution), the stages,
 * each stage's participants (picked by name or e-mail) and the phase that follows; the server's
 * refusals (an unknown participant, a `next` naming no phase) shown beside the input they concern.
 */
import { issuesUnder, parseDefinition, type SectionEditorProps, withMember } from './form-definition';
import { PersonPicker } from './person-picker';

const PHASES = ['approval', 'sign', 'execution'] as const;
type WorkPhase = (typeof PHASES)[number];
const AFTER = ['archive', 'repository'] as const;

interface PhaseConfig {
  stages: { participants: string[] }[];
  next?: string;
}
type Workflow = Partial<Record<WorkPhase, PhaseConfig>> & { dueDays?: number };

/** The definition's workflow when it has the shape this editor edits; undefined otherwise. */
function workflowOf(definition: Record<string, unknown>): Workflow | undefined {
  const workflow = definition.workflow ?? {};
  if (typeof workflow !== 'object' || workflow === null || Array.isArray(workflow)) return undefined;
  for (const phase of PHASES) {
    const config = (workflow as Workflow)[phase];
    if (config === undefined) continue;
    const stagesOk =
      Array.isArray(config?.stages) &&
      config.stages.every(
        (s) => Array.isArray(s?.participants) && s.participants.every((p) => typeof p === 'string'),
      );
    if (!stagesOk) return undefined;
  }
  return workflow as Workflow;
}

/** An error beside its input: the message, and the id its input is described by. */
function Problem({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} class="field-error">
      {message}
    </small>
  ) : null;
}

export function FormWorkflowEditor({ text, onText, issues }: SectionEditorProps) {
  const definition = parseDefinition(text);
  const workflow = definition && workflowOf(definition);
  if (!definition || !workflow)
    return <p class="hint">The workflow can be edited here once the definition’s JSON has its shape.</p>;
  const errors = issuesUnder(issues, 'body.workflow.');
  const write = (next: Workflow) =>
    onText(withMember(definition, 'workflow', Object.keys(next).length ? next : undefined));
  const setPhase = (phase: WorkPhase, config: PhaseConfig | undefined) => {
    const { [phase]: _old, ...rest } = workflow;
    write(config ? { ...rest, [phase]: config } : rest);
  };

  return (
    <fieldset>
      <legend>Workflow</legend>
      <div class="field">
        <label for="wf-due">Days until due (empty: no due date)</label>
        <input
          id="wf-due"
          type="number"
          min={0}
          value={workflow.dueDays ?? ''}
          aria-invalid={errors.dueDays ? true : undefined}
          aria-describedby={errors.dueDays ? 'wf-due-error' : undefined}
          onInput={(e) => {
            const typed = (e.target as HTMLInputElement).value.trim();
            const { dueDays: _old, ...rest } = workflow;
            write(typed === '' ? rest : { ...rest, dueDays: Number(typed) });
          }}
        />
        <Problem id="wf-due-error" message={errors.dueDays} />
      </div>
      {PHASES.map((phase) => {
        const config = workflow[phase];
        if (!config)
          return (
            <button
              key={phase}
              type="button"
              class="secondary"
              onClick={() => setPhase(phase, { stages: [{ participants: [''] }] })}
            >
              Add the {phase} phase
            </button>
          );
        const setStages = (stages: PhaseConfig['stages']) => setPhase(phase, { ...config, stages });
        const nextId = `wf-${phase}-next`;
        return (
          <fieldset key={phase}>
            <legend>The {phase} phase</legend>
            {config.stages.map((stage, s) => {
              const setParticipants = (participants: string[]) =>
                setStages(config.stages.map((st, i) => (i === s ? { ...st, participants } : st)));
              return (
                <fieldset key={s} class="stage">
                  <legend>
                    Stage {s + 1} of {phase}
                  </legend>
                  {stage.participants.map((participant, p) => {
                    const id = `wf-${phase}-${s}-${p}`;
                    const error = errors[`${phase}.stages.${s}.participants.${p}`];
                    const label = `Participant ${p + 1} of ${phase} stage ${s + 1}`;
                    return (
                      <div class="row participant" key={p}>
                        <div class="field">
                          <label for={id}>{label}</label>
                          <PersonPicker
                            id={id}
                            label={label}
                            value={participant}
                            invalid={Boolean(error)}
                            describedBy={error ? `${id}-error` : undefined}
                            onChange={(next) =>
                              setParticipants(stage.participants.map((x, i) => (i === p ? next : x)))
                            }
                          />
                          <Problem id={`${id}-error`} message={error} />
                        </div>
                        <button
                          type="button"
                          class="secondary"
                          aria-label={`Remove ${label.toLowerCase()}`}
                          onClick={() => setParticipants(stage.participants.filter((_, i) => i !== p))}
                        >
                          Remove
                        </button>
                      </div>
                    );
                  })}
                  <Problem
                    id={`wf-${phase}-${s}-error`}
                    message={errors[`${phase}.stages.${s}.participants`] ?? errors[`${phase}.stages.${s}`]}
                  />
                  <div class="row">
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => setParticipants([...stage.participants, ''])}
                    >
                      Add a participant to {phase} stage {s + 1}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => setStages(config.stages.filter((_, i) => i !== s))}
                    >
                      Remove {phase} stage {s + 1}
                    </button>
                  </div>
                </fieldset>
              );
            })}
            <Problem id={`wf-${phase}-stages-error`} message={errors[`${phase}.stages`]} />
            <div class="row">
              <button
                type="button"
                class="secondary"
                onClick={() => setStages([...config.stages, { participants: [''] }])}
              >
                Add a stage to {phase}
              </button>
              <div class="field">
                <label for={nextId}>After {phase}</label>
                <select
                  id={nextId}
                  value={config.next ?? ''}
                  aria-invalid={errors[`${phase}.next`] ? true : undefined}
                  aria-describedby={errors[`${phase}.next`] ? `${nextId}-error` : undefined}
                  onChange={(e) => {
                    const next = (e.target as HTMLSelectElement).value;
                    const { next: _old, ...rest } = config;
                    setPhase(phase, next ? { ...rest, next } : rest);
                  }}
                >
                  <option value="">nothing (the workflow completes)</option>
                  {[...PHASES.filter((p) => p !== phase), ...AFTER].map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
                <Problem id={`${nextId}-error`} message={errors[`${phase}.next`]} />
              </div>
              <button type="button" class="secondary" onClick={() => setPhase(phase, undefined)}>
                Remove the {phase} phase
              </button>
            </div>
          </fieldset>
        );
      })}
    </fieldset>
  );
}
