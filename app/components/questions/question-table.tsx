import type { ReactNode } from "react";
import { formatDay } from "~/lib/questions";
import { dateInZone } from "~/lib/slots";
import { StatusBadge } from "./status-badge";

export type QuestionRowData = {
  id: number;
  name: string | null;
  question: string;
  status: string;
  createdAt: Date | string;
};

/**
 * SPEC.md's questions table: ID, Name, Question, Status, Date (yyyy-MM-dd or N/A), Actions, with the
 * empty state "No questions found.". On phones each row becomes a card (CSS), labels included.
 * Dates are UTC days unless the reader's `timeZone` is known (the expert's own desk).
 */
export function QuestionTable<T extends QuestionRowData>({
  rows,
  caption,
  action,
  extraColumn,
  timeZone,
}: {
  rows: T[];
  caption: string;
  action: (row: T) => ReactNode;
  extraColumn?: { header: string; cell: (row: T) => ReactNode };
  timeZone?: string;
}) {
  if (rows.length === 0) return <p className="empty-state">No questions found.</p>;
  return (
    <div className="table-frame">
      <section
        className="table-wrap"
        aria-label={caption}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it (WCAG 2.1.1)
        tabIndex={0}
      >
        <table className="question-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Name</th>
              {extraColumn ? <th scope="col">{extraColumn.header}</th> : null}
              <th scope="col">Question</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
                <span aria-hidden="true">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td data-label="ID">{`#${row.id}`}</td>
                <td data-label="Name">{row.name ?? "Client"}</td>
                {extraColumn ? <td data-label={extraColumn.header}>{extraColumn.cell(row)}</td> : null}
                <td data-label="Question" className="question-cell">
                  <span className="clamp-2">{row.question}</span>
                </td>
                <td data-label="Status">
                  <StatusBadge status={row.status} />
                </td>
                <td data-label="Date">
                  {timeZone ? dateInZone(new Date(row.createdAt), timeZone) : formatDay(row.createdAt)}
                </td>
                <td data-label="Actions" className="actions-cell">
                  {action(row)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
