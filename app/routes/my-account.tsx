import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireCustomer } from "~/auth/session.server";

/** Its pages may opt in to the render memo: this layout renders nothing but them. */
export const handle = { renderMemo: true };

/** The account area: every page inside needs a signed-in customer. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const { customer } = requireCustomer(context, request);
  return { email: customer.email };
}

export default function AccountLayout() {
  return <Outlet />;
}
