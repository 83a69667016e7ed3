import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { ExpertisePicker } from "~/components/expertise-picker";
import { PrefixedField } from "~/components/prefixed-field";
import { SelectField } from "~/components/select-field";
import { Button } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { requiredFields, useForm } from "~/components/use-form";
import { useTypedBeforeHydration } from "~/components/use-typed-before-hydration";
import { useUnsentChanges } from "~/components/use-unsent-changes";
import { EXPERT_LIMITS, filterCustomUrlInput, makeExpertGeneralSchema } from "~/schemas/expert";

export type SettingsFormResult = {
  intent: string | null;
  ok: boolean;
  result?: SubmissionResult<string[]> | null;
  error?: string | null;
};

type Profile = {
  id: number;
  title: string | null;
  occupation: string | null;
  company: string | null;
  location: string | null;
  customUrl: string | null;
  categoryId: number | null;
  expertise: string[];
  bio: string;
  consultingTopics: string | null;
  qualifications: string | null;
  socialWebsite: string | null;
  socialLinkedIn: string | null;
  socialTwitter: string | null;
  socialInstagram: string | null;
};

/**
 * The outcome of one settings form, toasted once it comes back (SPEC.md: "Profile updated" / "Update
 * failed"). Without JavaScript the form posts as a page: then the route's answer is the outcome, so
 * its errors and what was typed show all the same.
 */
export function useSaveToast(fetcher: { state: string; data?: SettingsFormResult }, intent: string) {
  const pageData = useActionData<SettingsFormResult>();
  const data = fetcher.data ?? pageData;
  const result = data?.intent === intent ? data : undefined;
  useEffect(() => {
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok) toast({ title: "Profile updated", description: "Your profile was updated successfully." });
    else
      toast({
        title: "Update failed",
        description: result.error ?? "Failed to update profile. Please check the highlighted fields.",
        variant: "destructive",
      });
  }, [fetcher.state, result]);
  return result;
}

export function GeneralForm({
  profile,
  categories,
  siteAddress,
}: {
  profile: Profile;
  categories: Array<{ id: number; name: string; slug: string }>;
  siteAddress: string;
}) {
  const fetcher = useFetcher<SettingsFormResult>();
  const result = useSaveToast(fetcher, "general");
  const schema = useMemo(() => makeExpertGeneralSchema(profile.customUrl), [profile.customUrl]);
  const [form, fields] = useForm({
    id: "expert-general",
    lastResult: result?.result,
    defaultValue: {
      title: profile.title ?? "",
      occupation: profile.occupation ?? "",
      company: profile.company ?? "",
      location: profile.location ?? "",
      bio: profile.bio,
      consultingTopics: profile.consultingTopics ?? "",
      qualifications: profile.qualifications ?? "",
      socialWebsite: profile.socialWebsite ?? "",
      socialLinkedIn: profile.socialLinkedIn ?? "",
      socialTwitter: profile.socialTwitter ?? "",
      socialInstagram: profile.socialInstagram ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const [customUrl, setCustomUrl] = useState(profile.customUrl ?? "");
  const [categoryId, setCategoryId] = useState(profile.categoryId ? String(profile.categoryId) : "");
  const [expertise, setExpertise] = useState<string[]>(profile.expertise);
  const [bioLength, setBioLength] = useState(profile.bio.length);
  const formRef = useRef<HTMLFormElement>(null);
  const controlled = {
    [fields.customUrl.name]: ([typed = ""]: string[]) => setCustomUrl(typed),
    [fields.categoryId.name]: ([typed = ""]: string[]) => setCategoryId(typed),
    [fields.expertise.name]: setExpertise,
  };
  useTypedBeforeHydration(formRef, {
    ...controlled,
    [fields.bio.name]: ([typed = ""]) => setBioLength(typed.trim().length),
  });
  useUnsentChanges(`expert-general:${profile.id}`, formRef, fetcher, controlled);
  const busy = fetcher.state !== "idle";

  return (
    <fetcher.Form ref={formRef} method="post" {...getFormProps(form)} className="card stack settings-form">
      <input type="hidden" name="intent" value="general" />
      {result?.ok === false && result.error ? (
        <p className="form-error" role="alert">
          {result.error}
        </p>
      ) : null}
      <div className="form-grid">
        <Field
          label="Professional Title"
          inputProps={getInputProps(fields.title, { type: "text" })}
          errors={fields.title.errors}
        />
        <Field
          label="Occupation"
          inputProps={getInputProps(fields.occupation, { type: "text" })}
          errors={fields.occupation.errors}
        />
        <Field
          label="Company"
          inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization" }}
          errors={fields.company.errors}
        />
        <Field
          label="Location"
          inputProps={getInputProps(fields.location, { type: "text" })}
          errors={fields.location.errors}
        />
      </div>
      <PrefixedField
        label="Custom URL"
        prefix={siteAddress}
        hint={
          profile.customUrl && customUrl !== profile.customUrl
            ? `Links you have shared to ${siteAddress}${profile.customUrl} will stop working once you save.`
            : "Lowercase letters, numbers and hyphens. Leave empty to use your expert number."
        }
        inputProps={{
          id: fields.customUrl.id,
          name: fields.customUrl.name,
          value: customUrl,
          autoCapitalize: "none",
          autoCorrect: "off",
          spellCheck: false,
          maxLength: EXPERT_LIMITS.customUrlMaxLength,
          onChange: (event) =>
            setCustomUrl(
              // An address made at sign-up may keep its underscores; new ones may not have them.
              filterCustomUrlInput(event.currentTarget.value, {
                allowUnderscore: Boolean(profile.customUrl?.includes("_")),
              }),
            ),
        }}
        errors={fields.customUrl.errors}
      />
      <SelectField
        label="Primary Category"
        placeholder="Select a category"
        options={categories.map((category) => ({ value: String(category.id), label: category.name }))}
        selectProps={{
          id: fields.categoryId.id,
          name: fields.categoryId.name,
          required: fields.categoryId.required,
          value: categoryId,
          onChange: (event) => setCategoryId(event.currentTarget.value),
        }}
        errors={fields.categoryId.errors}
      />
      <ExpertisePicker
        categories={categories}
        selected={expertise}
        onChange={setExpertise}
        errors={fields.expertise.errors}
        name={fields.expertise.name}
      />
      <TextareaField
        label="Bio"
        hint={`${bioLength} / ${EXPERT_LIMITS.bioMaxLength} characters (at least ${EXPERT_LIMITS.editBioMinLength}).`}
        inputProps={{
          ...getTextareaProps(fields.bio),
          rows: 6,
          onInput: (event) => setBioLength(event.currentTarget.value.trim().length),
        }}
        errors={fields.bio.errors}
      />
      <TextareaField
        label="What I'm qualified to consult on"
        hint="Optional, 5 to 300 characters."
        inputProps={{ ...getTextareaProps(fields.consultingTopics), rows: 3 }}
        errors={fields.consultingTopics.errors}
      />
      <TextareaField
        label="Qualifications"
        hint="Optional: degrees, certifications, notable roles."
        inputProps={{ ...getTextareaProps(fields.qualifications), rows: 3 }}
        errors={fields.qualifications.errors}
      />
      <fieldset className="settings-fieldset">
        <legend className="label">Social links (optional)</legend>
        <div className="form-grid">
          <Field
            label="Website"
            inputProps={{ ...getInputProps(fields.socialWebsite, { type: "url" }), placeholder: "https://" }}
            errors={fields.socialWebsite.errors}
          />
          <Field
            label="LinkedIn"
            inputProps={{
              ...getInputProps(fields.socialLinkedIn, { type: "url" }),
              placeholder: "https://linkedin.com/in/...",
            }}
            errors={fields.socialLinkedIn.errors}
          />
          <Field
            label="Twitter"
            inputProps={{
              ...getInputProps(fields.socialTwitter, { type: "url" }),
              placeholder: "https://x.com/...",
            }}
            errors={fields.socialTwitter.errors}
          />
          <Field
            label="Instagram"
            inputProps={{
              ...getInputProps(fields.socialInstagram, { type: "url" }),
              placeholder: "https://instagram.com/...",
            }}
            errors={fields.socialInstagram.errors}
          />
        </div>
      </fieldset>
      <div className="row">
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : "Save Changes"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
