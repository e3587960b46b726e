import { useId, useState } from 'react';
import { ApiError } from '../api/client';
import type { RunListItem } from '../api/types';
import { ConfirmDialog } from './ConfirmDialog';

/** What a dialog about a run shows of it. */
type RunToManage = Pick<RunListItem, 'query' | 'is_deletion_protected'>;

function PasswordField({
  label,
  value,
  onChange,
  hint,
  isNew = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  isNew?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete={isNew ? 'new-password' : 'off'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </>
  );
}

/**
 * "Delete this run?": the password is asked only for a protected run. A run protected since the list was read
 * answers 403 naming the password; the field appears then, beside the API's words.
 */
export function DeleteRunDialog({
  run,
  onDelete,
  onClose,
}: {
  run: RunToManage;
  onDelete: (password: string) => Promise<void>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState(run.is_deletion_protected);
  async function confirm() {
    try {
      await onDelete(asked ? password : '');
    } catch (e) {
      if (e instanceof ApiError && e.status === 403 && /password/i.test(e.detail)) setAsked(true);
      throw e;
    }
  }
  return (
    <ConfirmDialog title="Delete this run?" confirmLabel="Delete run" danger onConfirm={confirm} onClose={onClose}>
      <p>
        “{run.query}” leaves the list and its work stops.
        {run.is_deletion_protected && ' It is protected against deletion.'}
      </p>
      {asked && <PasswordField label="Deletion-protection password" value={password} onChange={setPassword} />}
    </ConfirmDialog>
  );
}

/** Sets a run's deletion-protection password, or replaces it (then the current one is asked for too). */
export function ProtectRunDialog({
  run,
  onProtect,
  onClose,
}: {
  run: RunToManage;
  onProtect: (passwords: { password: string; currentPassword: string }) => Promise<void>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const replacing = run.is_deletion_protected;
  return (
    <ConfirmDialog
      title={replacing ? 'Change the deletion-protection password?' : 'Protect this run from deletion?'}
      confirmLabel={replacing ? 'Change password' : 'Protect run'}
      onConfirm={() => onProtect({ password, currentPassword: replacing ? currentPassword : '' })}
      onClose={onClose}
    >
      <p>“{run.query}” can then be deleted only with this password.</p>
      {replacing && (
        <PasswordField
          label="Current deletion-protection password"
          value={currentPassword}
          onChange={setCurrentPassword}
        />
      )}
      <PasswordField
        label="New deletion-protection password"
        value={password}
        onChange={setPassword}
        hint="8 to 256 characters."
        isNew
      />
    </ConfirmDialog>
  );
}

/** Removes a run's deletion protection, which takes its password. */
export function UnprotectRunDialog({
  run,
  onUnprotect,
  onClose,
}: {
  run: RunToManage;
  onUnprotect: (password: string) => Promise<void>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  return (
    <ConfirmDialog
      title="Remove the deletion protection?"
      confirmLabel="Remove protection"
      onConfirm={() => onUnprotect(password)}
      onClose={onClose}
    >
      <p>“{run.query}” can then be deleted without a password.</p>
      <PasswordField label="Deletion-protection password" value={password} onChange={setPassword} />
    </ConfirmDialog>
  );
}
