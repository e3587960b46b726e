import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import './RowActions.css';

/** A row button's accessible name: what it does and the run's query, cut to its first 60 characters. */
export function rowActionLabel(action: string, query: string): string {
  return `${action}: ${Array.from(query).slice(0, 60).join('')}`;
}

/** A short button in a run's row, named for assistive technology by what it does to which run ("Purge run: …"). */
export function RowButton({
  text,
  action,
  query,
  danger,
  onClick,
}: {
  text: string;
  action: string;
  query: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`row-button ${danger ? 'danger' : 'secondary'}`}
      aria-label={rowActionLabel(action, query)}
      onClick={onClick}
    >
      {text}
    </button>
  );
}

/** One entry of a row's menu. */
export interface RowMenuItem {
  text: string;
  /** It destroys something: shown in red, and listed last by the caller. */
  danger?: boolean;
  onSelect: () => void;
}

/** Room kept between the menu and the viewport's edges. */
const EDGE_PX = 8;

/**
 * Places the open menu under its button, right edges aligned, inside the viewport (above the button when there
 * is no room below). Fixed, so a table region that scrolls sideways (and so clips) never cuts it off.
 */
function placeMenu(button: HTMLElement, menu: HTMLElement): void {
  const anchor = button.getBoundingClientRect();
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  const left = Math.min(Math.max(EDGE_PX, anchor.right - width), window.innerWidth - width - EDGE_PX);
  const below = anchor.bottom + 4;
  const top = below + height <= window.innerHeight - EDGE_PX ? below : Math.max(EDGE_PX, anchor.top - height - 4);
  // CSSOM, which the page's CSP allows (no inline style attribute).
  menu.style.left = `${Math.max(EDGE_PX, left)}px`;
  menu.style.top = `${top}px`;
}

/**
 * A row's actions behind one "Actions" button (the WAI-ARIA menu button): Enter, Space or ArrowDown opens the
 * menu on its first item, ArrowUp on its last; the arrows, Home and End move between items; Escape closes it
 * and gives the focus back to the button; Tab or a click elsewhere closes it, a scroll takes it along. Choosing an item gives
 * the focus back to the button first, so a dialog the item opens returns the focus there.
 */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const [open, setOpen] = useState<null | 'first' | 'last'>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();

  const entries = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? []);
  const close = useCallback((refocus: boolean) => {
    setOpen(null);
    if (refocus) button.current?.focus();
  }, []);

  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    placeMenu(button.current, menu.current);
    const all = Array.from(menu.current.querySelectorAll<HTMLElement>('[role=menuitem]'));
    (open === 'first' ? all[0] : all.at(-1))?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      const target = e.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    // The menu is fixed to the viewport: a scroll (of the page or of the table's region) takes it along.
    const moved = () => {
      if (button.current && menu.current) placeMenu(button.current, menu.current);
    };
    document.addEventListener('pointerdown', outside);
    window.addEventListener('scroll', moved, true);
    window.addEventListener('resize', moved);
    return () => {
      document.removeEventListener('pointerdown', outside);
      window.removeEventListener('scroll', moved, true);
      window.removeEventListener('resize', moved);
    };
  }, [open, close]);

  function onButtonKey(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKey(e: KeyboardEvent) {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => all[(i + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(all.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        // The focus moves on from the button (the menu stands right after it), as from a closed menu.
        close(false);
        button.current?.focus();
        return;
      default:
        return;
    }
    e.preventDefault();
  }

  function choose(item: RowMenuItem) {
    close(true);
    item.onSelect();
  }

  return (
    <div className="row-menu">
      <button
        ref={button}
        type="button"
        className="secondary row-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKey}
      >
        Actions <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul ref={menu} id={menuId} role="menu" aria-label={label} className="row-menu-list" onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.text} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={item.danger ? 'row-menu-item danger-text' : 'row-menu-item'}
                onClick={() => choose(item)}
              >
                {item.text}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
