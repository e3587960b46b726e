import './StatusLine.css';

/** The page's one status message (role=status), always in place so a new message is announced and nothing moves. */
export function StatusLine({ message }: { message: string }) {
  return (
    <p role="status" className="status-line">
      {message}
    </p>
  );
}
