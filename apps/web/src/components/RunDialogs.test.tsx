/** @jest-environment jsdom */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { DeleteRunDialog, ProtectRunDialog, UnprotectRunDialog } from './RunDialogs';

// jsdom has <dialog> but not its modal methods: the browser's open/close, as far as these tests need them.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const run = { query: 'How fast does solar power grow in Germany?', is_deletion_protected: true };

/** A button that opens the delete dialog, as the Runs page does, with `onDelete` doing the deleting. */
function DeleteOpener({ onDelete }: { onDelete: (password: string) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <DeleteRunDialog
          run={run}
          onClose={() => setOpen(false)}
          onDelete={async (password) => {
            await onDelete(password);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function openDialog(name: string): HTMLElement {
  const opener = screen.getByRole('button', { name: 'Delete' });
  opener.focus();
  fireEvent.click(opener);
  return screen.getByRole('dialog', { name });
}

describe('the delete dialog', () => {
  it('sends the password typed and shows the API’s 403 detail inside, staying open', async () => {
    const sent: string[] = [];
    render(
      <DeleteOpener
        onDelete={async (password) => {
          sent.push(password);
          throw new ApiError(403, 'A valid deletion-protection password is required.');
        }}
      />,
    );
    const dialog = openDialog('Delete this run?');
    expect(dialog).toHaveProperty('open', true);
    fireEvent.change(within(dialog).getByLabelText('Deletion-protection password'), { target: { value: 'wrong one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('A valid deletion-protection password is required.');
    expect(sent).toEqual(['wrong one']);
    expect(screen.getByRole('dialog', { name: 'Delete this run?' })).toBe(dialog);
    expect(within(dialog).getByRole('button', { name: 'Delete run' })).not.toHaveProperty('disabled', true);
  });

  it('sends an empty password when none was typed, and goes away when the deletion succeeds', async () => {
    const sent: string[] = [];
    render(<DeleteOpener onDelete={async (password) => void sent.push(password)} />);
    const dialog = openDialog('Delete this run?');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' })));
    expect(sent).toEqual(['']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends nothing twice while the first deletion is under way', async () => {
    let finish: () => void = () => {};
    const sent: string[] = [];
    render(
      <DeleteOpener
        onDelete={(password) => {
          sent.push(password);
          return new Promise<void>((resolve) => (finish = resolve));
        }}
      />,
    );
    const dialog = openDialog('Delete this run?');
    const button = within(dialog).getByRole('button', { name: 'Delete run' });
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.submit(button.closest('form') as HTMLFormElement);
    expect(button).toHaveProperty('disabled', true);
    await act(async () => finish());
    expect(sent).toEqual(['']);
  });

  it('closes on Cancel and on Escape, and gives the focus back to the button that opened it', () => {
    render(<DeleteOpener onDelete={async () => {}} />);
    const opener = screen.getByRole('button', { name: 'Delete' });
    let dialog = openDialog('Delete this run?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    // Escape: the browser fires cancel, closes the dialog and fires close.
    dialog = openDialog('Delete this run?');
    (within(document.body).getByLabelText('Deletion-protection password') as HTMLInputElement).focus();
    act(() => {
      fireEvent(dialog, new Event('cancel'));
      (dialog as HTMLDialogElement).close();
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('the delete dialog of an unprotected run', () => {
  const open = { query: 'Is coffee healthy?', is_deletion_protected: false };

  it('asks for no password, and sends none', async () => {
    const sent: string[] = [];
    render(<DeleteRunDialog run={open} onClose={() => {}} onDelete={async (password) => void sent.push(password)} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete this run?' });
    expect(within(dialog).queryByLabelText('Deletion-protection password')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' })));
    expect(sent).toEqual(['']);
  });

  it('asks for the password when the run was protected since the list was read', async () => {
    const sent: string[] = [];
    render(
      <DeleteRunDialog
        run={open}
        onClose={() => {}}
        onDelete={async (password) => {
          sent.push(password);
          if (password !== 'right one') throw new ApiError(403, 'A valid deletion-protection password is required.');
        }}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete this run?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'A valid deletion-protection password is required.',
    );
    fireEvent.change(within(dialog).getByLabelText('Deletion-protection password'), { target: { value: 'right one' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' })));
    expect(sent).toEqual(['', 'right one']);
  });

  it('shows another refusal without a password field', async () => {
    render(
      <DeleteRunDialog
        run={open}
        onClose={() => {}}
        onDelete={async () => {
          throw new ApiError(403, 'You may only manage your own research runs.');
        }}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete this run?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete run' }));
    await within(dialog).findByRole('alert');
    expect(within(dialog).queryByLabelText('Deletion-protection password')).toBeNull();
  });
});

describe('the deletion-protection dialogs', () => {
  it('asks for the current password too when the run is protected already', async () => {
    const sent: unknown[] = [];
    render(
      <ProtectRunDialog
        run={run}
        onClose={() => {}}
        onProtect={async (passwords) => {
          sent.push(passwords);
          throw new ApiError(403, 'The current deletion-protection password is required.');
        }}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Change the deletion-protection password?' });
    fireEvent.change(within(dialog).getByLabelText('Current deletion-protection password'), {
      target: { value: 'old password' },
    });
    fireEvent.change(within(dialog).getByLabelText('New deletion-protection password'), {
      target: { value: 'new password' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The current deletion-protection password is required.',
    );
    expect(sent).toEqual([{ password: 'new password', currentPassword: 'old password' }]);
  });

  it('asks only for the new password of an unprotected run', async () => {
    const sent: unknown[] = [];
    render(
      <ProtectRunDialog
        run={{ ...run, is_deletion_protected: false }}
        onClose={() => {}}
        onProtect={async (passwords) => void sent.push(passwords)}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Protect this run from deletion?' });
    expect(within(dialog).queryByLabelText('Current deletion-protection password')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('New deletion-protection password'), {
      target: { value: 'new password' },
    });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Protect run' })));
    expect(sent).toEqual([{ password: 'new password', currentPassword: '' }]);
  });

  it('removes protection with the password typed, showing a 404 as worded', async () => {
    const sent: string[] = [];
    render(
      <UnprotectRunDialog
        run={run}
        onClose={() => {}}
        onUnprotect={async (password) => {
          sent.push(password);
          throw new ApiError(404, 'Research run r1 not found');
        }}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Remove the deletion protection?' });
    fireEvent.change(within(dialog).getByLabelText('Deletion-protection password'), { target: { value: 'pw' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove protection' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Research run r1 not found');
    expect(sent).toEqual(['pw']);
  });
});
