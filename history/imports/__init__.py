"""An import of a club's past: a preview first, one transaction, undone as a whole."""
