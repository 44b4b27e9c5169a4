"""The resources of the API as they go over the wire (spec 2), shared by the function that serves an
endpoint and by the job worker that answers for it: one shape, whichever way it is asked for."""
