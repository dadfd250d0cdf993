"""Django admin of the games app: its rows are changed through its services and pages."""
