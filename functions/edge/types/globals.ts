// Local stand-in for the remote type module the edge bootstrap imports; it only carries types.
export {};
