import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { useRef } from "react";
import { PrefixedField } from "~/components/prefixed-field";
import { Button } from "~/components/ui/button";
import { requiredFields, useForm } from "~/components/use-form";
import { useShowStoredAfterSave } from "~/components/use-show-stored";
import { useUnsentChanges } from "~/components/use-unsent-changes";
import { ExpertPricingSchema } from "~/schemas/expert";
import { type SettingsFormResult, useSaveToast } from "./general-form";

const asDollars = (cents: number) => (cents / 100).toFixed(2);

export function PricingForm({
  expertId,
  questionRate,
  sessionPrice,
}: {
  expertId: number;
  questionRate: number;
  sessionPrice: number;
}) {
  const fetcher = useFetcher<SettingsFormResult>();
  // Prices sent as the session ended (or as the server failed) come back once the form is shown again.
  const formRef = useRef<HTMLFormElement>(null);
  const editedSinceSend = useUnsentChanges(`expert-pricing:${expertId}`, formRef, fetcher);
  const result = useSaveToast(fetcher, "pricing");
  const [form, fields] = useForm({
    id: "expert-pricing",
    lastResult: result?.result,
    defaultValue: { questionRate: asDollars(questionRate), sessionPrice: asDollars(sessionPrice) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(ExpertPricingSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ExpertPricingSchema }),
  });
  // 19.999 is kept as $20.00; leaving still asks about what was typed since the save was sent.
  useShowStoredAfterSave(
    form,
    editedSinceSend,
    `${questionRate}/${sessionPrice}`,
    fetcher.state === "idle" && result?.ok ? result : null,
  );
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form ref={formRef} method="post" {...getFormProps(form)} className="card stack settings-form">
      <input type="hidden" name="intent" value="pricing" />
      <div className="form-grid">
        <PrefixedField
          label="Question Rate (USD)"
          prefix="$"
          hint="What a client pays for one answered question. Minimum $5.00."
          inputProps={{ ...getInputProps(fields.questionRate, { type: "text" }), inputMode: "decimal" }}
          errors={fields.questionRate.errors}
        />
        <PrefixedField
          label="Session Price (USD)"
          prefix="$"
          hint="What a client pays for a 60-minute session. Minimum $10.00."
          inputProps={{ ...getInputProps(fields.sessionPrice, { type: "text" }), inputMode: "decimal" }}
          errors={fields.sessionPrice.errors}
        />
      </div>
      <p className="hint">New prices apply to questions and sessions booked from now on.</p>
      <div className="row">
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : "Save Pricing"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
