import type { ClientActionFunctionArgs } from "@remix-run/react";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { toast } from "~/components/ui/toast";
import type { QuestionActionData } from "./answer-form";

/**
 * The decline route's clientAction. The form that sent a decline shows its outcome, but the admin can
 * open another question while it is on its way, which takes that form off the page: then this says it.
 * (The question opened again shows a new form, which is not the one sending.)
 */
export async function declineClientAction(args: ClientActionFunctionArgs) {
  const answer: unknown = await keepFormWhenOffline(args);
  const sentFrom = `form[action^="/questions/${args.params.questionId}/decline"][aria-busy="true"]`;
  if (answer && !(answer instanceof Response) && !document.querySelector(sentFrom)) {
    const { message, toast: said } = answer as QuestionActionData;
    toast(said ?? { title: "Question not declined", description: message, variant: "destructive" });
  }
  return answer;
}
