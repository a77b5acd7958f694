import { useState, type ReactNode } from 'react';

/**
 * A button for an action that is hard to undo: the first click asks, in
 * place, with what will happen; the second does it. (No window.confirm: it
 * blocks the page, and Electron and test browsers treat it differently.)
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  className = 'button',
  disabled = false,
}: {
  label: ReactNode;
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  className?: string;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className={className}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <span>{question}</span>
      <button
        type="button"
        className="button small danger"
        onClick={() => {
          setAsking(false);
          void onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
