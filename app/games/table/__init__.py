"""At the table: the seats confirm the sheet (and a confirmed sheet is locked), and the table
calls the director."""
