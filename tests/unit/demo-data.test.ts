import { describe, expect, it } from "vitest";
import { DEMO_NOTIFICATIONS } from "../../scripts/demo-data";

describe("the demo data", () => {
  it("never tells of a refund: demo bookings are in test mode, where no payment is taken", () => {
    const claims = DEMO_NOTIFICATIONS.filter((notice) => /refund/i.test(`${notice.title} ${notice.body}`));
    expect(claims.map((notice) => notice.title)).toEqual([]);
  });
});
