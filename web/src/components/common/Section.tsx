import { useId, useState, type ReactNode } from 'react';

/** A collapsible section of a panel: a button that says whether it is open, and its body. */
export function Section({
  title,
  count,
  defaultOpen = false,
  children,
}: {
  title: string;
  count?: number;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <div className="section">
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span>{title}</span>
        {count !== undefined && <span className="count">{count.toLocaleString()}</span>}
      </button>
      <div id={id} className="body" hidden={!open}>
        {open && children}
      </div>
    </div>
  );
}
