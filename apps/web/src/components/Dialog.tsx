import { useEffect, useId, useRef, type ReactNode } from 'react';
import './Dialog.css';

/**
 * A modal <dialog>, open while it is mounted: showModal() puts the focus inside and makes the page behind inert,
 * Escape closes it (through `onClose`), and the focus goes back to what had it before (the button that opened
 * it), as long as that is still on the page.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // The browser closes the dialog itself on Escape. A close event from an earlier mount (React's strict mode
    // mounts twice) arrives after the dialog is open again, and is not ours to act on.
    const onNativeClose = () => {
      if (!dialog.open) onCloseRef.current();
    };
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
