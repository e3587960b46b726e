import { useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../api/client';
import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  title: string;
  /** The text of the button that does it, e.g. "Delete run". */
  confirmLabel: string;
  /** Does it; a rejection's text (the API's detail) is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** Whether the action destroys something (a red button). */
  danger?: boolean;
  children?: ReactNode;
}

/** A dialog that asks before it acts: its own fields (children), an error line, the action and "Cancel". */
export function ConfirmDialog({ title, confirmLabel, onConfirm, onClose, danger, children }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {children}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="submit" className={danger ? 'danger' : undefined} disabled={busy} aria-busy={busy || undefined}>
            {confirmLabel}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
