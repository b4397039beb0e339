"""The virtual phone's Android-like UI toolkit: views, windows, dumps, rendering."""
