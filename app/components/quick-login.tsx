import { Form, useNavigation } from "@remix-run/react";
import { Button } from "./ui/button";

export type QuickAccount = { username: string; password: string; label: string };

/** One-click sign-in buttons for the seeded demo accounts (demo mode only). */
export function QuickLoginButtons({ accounts }: { accounts: readonly QuickAccount[] }) {
  const navigation = useNavigation();
  const pendingUser = navigation.state !== "idle" ? navigation.formData?.get("username") : null;
  return (
    <ul className="stack plain-list" aria-label="Demo accounts">
      {accounts.map((account) => (
        <li key={account.username}>
          <Form method="post">
            <input type="hidden" name="intent" value="login" />
            <input type="hidden" name="username" value={account.username} />
            <input type="hidden" name="password" value={account.password} />
            <Button type="submit" block disabled={Boolean(pendingUser)}>
              {pendingUser === account.username ? "Signing in..." : `Sign in as ${account.label}`}
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
