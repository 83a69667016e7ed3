import { useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ImagePicker } from "~/components/image-picker";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";

type UploadResult = { intent: string | null; ok: boolean; url: string | null; error: string | null };

/** Profile picture and header image, each uploaded on its own (SPEC.md's "Photos" tab). */
export function PhotosForm({
  profileImage,
  headerImage,
}: {
  profileImage: string | null;
  headerImage: string | null;
}) {
  return (
    <div className="stack">
      <ImageUpload
        intent="profileImage"
        label="Profile Picture"
        hint="JPEG, PNG, WebP or GIF, up to 5 MB. 400 x 400 recommended."
        shape="square"
        currentUrl={profileImage}
        successTitle="Profile image uploaded"
      />
      <ImageUpload
        intent="headerImage"
        label="Header Image"
        hint="JPEG, PNG, WebP or GIF, up to 5 MB. 1200 x 300 recommended."
        shape="banner"
        currentUrl={headerImage}
        successTitle="Header Image Uploaded"
      />
    </div>
  );
}

function ImageUpload({
  intent,
  label,
  hint,
  shape,
  currentUrl,
  successTitle,
}: {
  intent: "profileImage" | "headerImage";
  label: string;
  hint: string;
  shape: "square" | "banner";
  currentUrl: string | null;
  successTitle: string;
}) {
  const fetcher = useFetcher<UploadResult>();
  const [chosen, setChosen] = useState(false);
  const [pickerKey, setPickerKey] = useState(0);
  // Without JavaScript the upload posts as a page, and the route's answer is the outcome.
  const pageData = useActionData<UploadResult>();
  const data = fetcher.data ?? pageData;
  const result = data?.intent === intent ? data : undefined;
  // A refused upload's message is about the file sent: choosing another one clears it.
  const [answeredFile, setAnsweredFile] = useState<UploadResult | undefined>(undefined);
  const refusal = result && result !== answeredFile && !result.ok ? result.error : null;
  const formRef = useRef<HTMLFormElement>(null);
  const focusPickerOnRemount = useRef(false);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok) {
      toast({ title: successTitle, description: "Your public profile shows the new image." });
      formRef.current?.reset();
      setChosen(false);
      setPickerKey((key) => key + 1);
    } else {
      toast({
        title: "Failed to upload image",
        description: result.error ?? undefined,
        variant: "destructive",
      });
      // The refused file goes: the picture beside the message is the one the profile still shows,
      // and focus waits on the file input for another choice.
      formRef.current?.reset();
      setChosen(false);
      setPickerKey((key) => key + 1);
      focusPickerOnRemount.current = true;
    }
  }, [fetcher.state, result, successTitle]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the picker has remounted with its new key.
  useEffect(() => {
    if (!focusPickerOnRemount.current) return;
    focusPickerOnRemount.current = false;
    formRef.current?.querySelector<HTMLInputElement>("input[type=file]")?.focus();
  }, [pickerKey]);

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      className="card stack settings-form"
    >
      <input type="hidden" name="intent" value={intent} />
      <ImagePicker
        key={pickerKey}
        name="image"
        label={label}
        hint={hint}
        shape={shape}
        currentUrl={result?.ok ? result.url : currentUrl}
        errors={refusal ? [refusal] : undefined}
        onFileChange={(file) => {
          setChosen(file !== null);
          setAnsweredFile(result);
        }}
      />
      <div className="row">
        <Button type="submit" disabled={busy || !chosen}>
          {busy ? "Uploading..." : `Upload ${label}`}
        </Button>
      </div>
    </fetcher.Form>
  );
}
