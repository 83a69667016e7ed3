import { useId } from "react";
import { MAX_CATEGORIES_MESSAGE, MAX_CATEGORIES_TITLE } from "~/schemas/expert";
import { ErrorList, type FieldErrors } from "./ui/field";
import { toast } from "./ui/toast";

export const MAX_EXPERTISE = 3;

/**
 * Up to 3 areas of expertise chosen from the categories (SPEC.md), as checkboxes styled as chips.
 * Choosing a fourth is refused with SPEC.md's "Maximum categories reached" toast.
 */
export function ExpertisePicker({
  categories,
  selected,
  onChange,
  errors,
  name = "expertise",
  legend = "Areas of Expertise",
}: {
  categories: ReadonlyArray<{ id: number; name: string }>;
  selected: readonly string[];
  onChange: (next: string[]) => void;
  errors?: FieldErrors;
  name?: string;
  legend?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);

  function toggle(categoryName: string, checked: boolean) {
    if (!checked) {
      onChange(selected.filter((item) => item !== categoryName));
      return;
    }
    if (selected.length >= MAX_EXPERTISE) {
      toast({ title: MAX_CATEGORIES_TITLE, description: MAX_CATEGORIES_MESSAGE, variant: "destructive" });
      return;
    }
    onChange([...selected, categoryName]);
  }

  return (
    <fieldset
      className="field chip-fieldset"
      aria-describedby={[hintId, invalid ? errorId : null].filter(Boolean).join(" ")}
      aria-invalid={invalid || undefined}
    >
      <legend className="label label--required">{legend}</legend>
      <p id={hintId} className="hint">
        Choose 1 to {MAX_EXPERTISE} ({selected.length} of {MAX_EXPERTISE} chosen).
      </p>
      <div className="chip-group">
        {categories.map((category) => {
          const checked = selected.includes(category.name);
          return (
            <label key={category.id} className="chip" data-checked={checked}>
              <input
                type="checkbox"
                name={name}
                value={category.name}
                checked={checked}
                onChange={(event) => toggle(category.name, event.currentTarget.checked)}
              />
              <span>{category.name}</span>
            </label>
          );
        })}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}
